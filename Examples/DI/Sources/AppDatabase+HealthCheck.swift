import Database
import Foundation
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

extension AppDI {
    /// `container.checkHealth(timeout:)`, with the database checked through `resolveAsync`.
    ///
    /// `checkHealth` resolves each registration synchronously, so the database, an async-only
    /// registration, comes back `unhealthy` with `DIError.asyncResolutionRequired` without being
    /// checked; its entry is replaced by the result of its own ``AppDatabase/healthCheck()``.
    public static func checkHealth(of container: Container, timeout: TimeInterval = 2) async -> [String: HealthStatus] {
        var health = await container.checkHealth(timeout: timeout)
        let key = String(reflecting: AppDatabase.self)
        guard case .unhealthy(let error)? = health[key], case .asyncResolutionRequired? = error as? DIError else {
            return health
        }
        do {
            health[key] = try await container.resolveAsync(AppDatabase.self).healthCheck()
        } catch {
            health[key] = .unhealthy(error: error)
        }
        return health
    }
}
