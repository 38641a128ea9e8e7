import Database
import ServiceLifecycle

/// Reports what the database holds when the server stops. It reads the database, so it depends
/// on ``ShopDatabaseService`` and must stop before it: the service group's reverse order does that.
public final class ShopStatsService: Service {
    let databaseService: ShopDatabaseService
    private let log: @Sendable (String) -> Void

    /// A service reporting on `databaseService`'s database at shutdown.
    public init(databaseService: ShopDatabaseService, log: @escaping @Sendable (String) -> Void) {
        self.databaseService = databaseService
        self.log = log
    }

    public func run() async throws {
        log("service started: ShopStatsService")
        try? await gracefulShutdown()
        let counts = try databaseService.database.rowCounts()
        log(
            "service stopped: ShopStatsService (\(counts.users) users, \(counts.orders) orders, \(counts.payments) payments)"
        )
    }
}
