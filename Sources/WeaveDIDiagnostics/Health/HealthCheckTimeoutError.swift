import Foundation
import WeaveDICore

/// A health check did not finish within its timeout.
public struct HealthCheckTimeoutError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The service (type and name) whose check timed out.
    public let service: String
    /// The timeout it had, in seconds.
    public let timeout: TimeInterval

    /// The timeout error for `service`'s check, which had `timeout` seconds.
    public init(service: String, timeout: TimeInterval) {
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
