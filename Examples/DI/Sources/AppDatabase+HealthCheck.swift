import Database
import WeaveDI

// The composition root knows both the database and WeaveDI, so it is where the database joins
// the container's health checks (`container.checkHealth()`).
extension AppDatabase: HealthCheckable {
    public func healthCheck() async -> HealthStatus {
        do {
            let applied = try appliedMigrations()
            let expected = AppDatabase.migrationNames
            guard applied == expected else {
                return .degraded(reason: "migrations \(applied) applied, expected \(expected)")
            }
            _ = try rowCounts()
            return .healthy
        } catch {
            return .unhealthy(error: error)
        }
    }
}
