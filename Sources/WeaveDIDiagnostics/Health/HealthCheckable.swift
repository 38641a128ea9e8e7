import WeaveDICore

/// A service that can tell whether it works: a database that can reach its server, a cache with
/// room left. ``Container/checkHealth(timeout:)`` runs every registered one.
///
/// An app that declares its own `HealthCheckable` (as the Advanced Patterns guide does) keeps using its own: a
/// declaration in the app's module hides this one there. Only services conforming to this
/// protocol take part in ``Container/checkHealth(timeout:)``.
public protocol HealthCheckable {
    /// Checks the service. Called concurrently with other services' checks; a check that runs
    /// past its timeout is reported as unhealthy and cancelled (a check that ignores
    /// cancellation keeps running, but nobody waits for it).
    func healthCheck() async -> HealthStatus
}
