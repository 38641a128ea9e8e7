import Foundation
import WeaveDICore

/// Thrown by ``Container/verifyOrThrow(_:)``: some of the critical types cannot be resolved.
public struct VerificationError: Error, CustomStringConvertible, LocalizedError {
    /// One entry per type that cannot be resolved, in the order they were asked for.
    public let failures: [VerificationFailure]

    /// Every failure, one per line.
    public var description: String {
        "Critical dependencies cannot be resolved:\n" + failures.map { "- \($0.description)" }.joined(separator: "\n")
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
