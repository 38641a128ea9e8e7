import Foundation
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

/// How a ``HealthCheckable`` service is doing.
public enum HealthStatus: Sendable, CustomStringConvertible {
    /// Working normally.
    case healthy
    /// Working, but not fully: slow, on a fallback, close to a limit.
    case degraded(reason: String)
    /// Not working; `error` says why (a ``TimeoutError`` when the check ran out of
    /// time, a ``DIError`` when the service could not even be resolved).
    case unhealthy(error: Error)

    /// Whether the status is ``healthy``.
    public var isHealthy: Bool {
        if case .healthy = self { return true }
        return false
    }

    /// `healthy`, `degraded: <reason>` or `unhealthy: <error>`.
    public var description: String {
        switch self {
        case .healthy: return "healthy"
        case .degraded(let reason): return "degraded: \(reason)"
        case .unhealthy(let error): return "unhealthy: \(error)"
        }
    }
}

extension HealthStatus {
    /// A health check did not finish within its timeout.
    public struct TimeoutError: Error, Sendable, CustomStringConvertible, LocalizedError {
        /// The service (type and name) whose check timed out.
        public let service: String
        /// The timeout it had, in seconds.
        public let timeout: TimeInterval

        /// The timeout error for `service`'s check, which had `timeout` seconds.
        init(service: String, timeout: TimeInterval) {
            self.service = service
            self.timeout = timeout
        }

        /// Names the service and the timeout.
        public var description: String {
            "The health check of \(service) did not finish within \(timeout) s."
        }

        /// The same text as `description`, for `localizedDescription`.
        public var errorDescription: String? { description }
    }
}
