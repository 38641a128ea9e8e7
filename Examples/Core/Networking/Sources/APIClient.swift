import Foundation

/// Talks to the shop's backend. Features depend on this protocol only.
public protocol APIClient: Sendable {
    /// Sends `endpoint` and decodes the JSON answer as `T`; throws ``APIError`` for an error status
    /// or a body that does not decode.
    func request<T: Decodable>(_ endpoint: Endpoint) async throws -> T
}

/// Why a request failed.
public enum APIError: Error, Equatable, CustomStringConvertible {
    /// The backend answered with an error status.
    case status(Int, message: String, endpoint: String)
    /// The answer's body was not the expected JSON.
    case undecodable(endpoint: String, detail: String)

    public var description: String {
        switch self {
        case .status(let code, let message, let endpoint): return "\(endpoint) failed with \(code): \(message)"
        case .undecodable(let endpoint, let detail): return "\(endpoint) returned an unexpected body: \(detail)"
        }
    }
}
