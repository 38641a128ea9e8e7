import Foundation

/// A health check did not finish within its timeout.
public struct HealthCheckTimeoutError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The service (type and name) whose check timed out.
    public let service: String
    /// The timeout it had, in seconds.
    public let timeout: TimeInterval

    /// Names the service and the timeout.
    public var description: String {
        "The health check of \(service) did not finish within \(timeout) s."
    }

    public var errorDescription: String? { description }
}
