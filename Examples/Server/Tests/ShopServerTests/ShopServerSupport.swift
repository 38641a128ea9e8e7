import DI
import Database
import Foundation
import Hummingbird
import HummingbirdTesting
import ShopHTTP
import Synchronization
import WeaveDI

/// A shop server on loopback in a container of the test's own, on a temporary database.
struct TestShop {
    let container: Container
    let router: Router<ShopRequestContext>
    let log: ServiceLog

    /// Bootstraps the testing environment into a new container and builds the router; call
    /// inside `Container.withShared(container)`.
    static func make(container: Container) async throws -> TestShop {
        // The server's services resolve the database synchronously, so it is opened here (with
        // `await`) and registered as an instance, as ShopServer's main does.
        _ = try await AppDI.bootstrap(
            AppConfiguration(environment: .testing), database: try await AppDatabase.temporary())
        let log = ServiceLog()
        ShopWiring.register(in: container, log: { log.append($0) })
        return TestShop(
            container: container,
            router: ShopRoutes.router(container: container, bindsSharedContainer: true), log: log)
    }

    func application() -> some ApplicationProtocol {
        Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

/// Lines the services log, in order.
final class ServiceLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

extension TestResponse {
    /// The body decoded as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8))) as? [String: Any] ?? [:]
    }
}

func jsonBody(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }
