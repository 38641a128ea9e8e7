import WeaveDICore

/// How a ``HealthCheckable`` service is doing.
public enum HealthStatus: Sendable, CustomStringConvertible {
    /// Working normally.
    case healthy
    /// Working, but not fully: slow, on a fallback, close to a limit.
    case degraded(reason: String)
    /// Not working; `error` says why (a ``HealthCheckTimeoutError`` when the check ran out of
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
