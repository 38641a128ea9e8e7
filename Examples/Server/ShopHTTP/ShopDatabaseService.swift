import Database
import ServiceLifecycle

/// The database as a service: open while the server runs, closed when the service group shuts it
/// down — last, since every other service and request depends on it.
public final class ShopDatabaseService: Service {
    /// The database the repositories use.
    public let database: AppDatabase
    private let log: @Sendable (String) -> Void

    /// A service that closes `database` on graceful shutdown; `log` reports it.
    public init(database: AppDatabase, log: @escaping @Sendable (String) -> Void) {
        self.database = database
        self.log = log
    }

    public func run() async throws {
        log("service started: ShopDatabaseService (\(database.path))")
        try? await gracefulShutdown()
        try database.close()
        log("service stopped: ShopDatabaseService (database closed)")
    }
}
