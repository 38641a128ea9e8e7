import Foundation

/// An ``APIClient`` that sends requests to a ``ShopBackend`` in the same process: no network, but
/// the same JSON encoding, status handling and decoding a networked client does.
public final class InProcessAPIClient: APIClient {
    public let backend: ShopBackend
    private let recorder = RequestRecorder()

    public init(backend: ShopBackend = .standard) {
        self.backend = backend
    }

    public func request<T: Decodable>(_ endpoint: Endpoint) async throws -> T {
        recorder.record(endpoint)
        let response = backend.handle(endpoint)
        guard response.status == 200 else {
            throw APIError.status(
                response.status, message: String(decoding: response.body, as: UTF8.self),
                endpoint: endpoint.description)
        }
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw APIError.undecodable(endpoint: endpoint.description, detail: "\(error)")
        }
    }

    /// The requests sent so far, in order (`"GET /catalog/items/mug"`).
    public var sentRequests: [String] { recorder.all }
}

/// The requests a client sent, kept for tests and the app's summary.
final class RequestRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String] = [] // guarded by `lock`

    func record(_ endpoint: Endpoint) { lock.withLock { requests.append(endpoint.description) } }
    var all: [String] { lock.withLock { requests } }
}
