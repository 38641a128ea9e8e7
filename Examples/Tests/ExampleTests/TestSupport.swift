import DI
import Database
import Foundation
import Networking
import SharedModels
import WeaveDI

/// The app as the testing environment wires it, in the test's own container: a temporary SQLite
/// database, the real features, an event journal.
struct TestApp {
    let summary: BootstrapSummary

    /// Bootstraps `Container.shared`, which a `.container` trait or `Container.withShared` has made
    /// the test's own.
    static func bootstrap() async throws -> TestApp {
        TestApp(summary: try await AppDI.bootstrap(AppConfiguration(environment: .testing)))
    }

    func resolve<T>(_ type: T.Type) throws -> T { try Container.shared.resolveOrThrow(type) }

    /// The database: an async singleton, already built by the bootstrap.
    func database() async throws -> AppDatabase { try await Container.shared.resolveAsync(AppDatabase.self) }

    var journal: [String] { get throws { try resolve(EventJournal.self).entries } }
}

/// A canned-response API client, the Multi-Module Projects guide's `MockAPIClient`: answers from a table, records what
/// it was asked, and fails loudly for anything else.
final class MockAPIClient: APIClient, @unchecked Sendable {
    private let lock = NSLock()
    private var responses: [String: Data]
    private var requests: [String] = [] // guarded by `lock`

    init(responses: [String: any Encodable] = [:]) {
        self.responses = responses.compactMapValues { try? JSONEncoder().encode($0) }
    }

    func request<T: Decodable>(_ endpoint: Endpoint) async throws -> T {
        let body = lock.withLock { () -> Data? in
            requests.append(endpoint.description)
            return responses[endpoint.description]
        }
        guard let body else {
            throw APIError.status(404, message: "no canned response", endpoint: endpoint.description)
        }
        return try JSONDecoder().decode(T.self, from: body)
    }

    var sentRequests: [String] { lock.withLock { requests } }
}

/// A receipt printer that remembers what it printed.
final class RecordingReceiptPrinter: ReceiptPrinting, @unchecked Sendable {
    private let lock = NSLock()
    private var printed: [(Order, Payment)] = [] // guarded by `lock`

    func printReceipt(for order: Order, payment: Payment) throws -> String {
        lock.withLock { printed.append((order, payment)) }
        return "memory:order-\(order.id)"
    }

    var receipts: [(order: Order, payment: Payment)] { lock.withLock { printed.map { ($0.0, $0.1) } } }
}
