import Foundation
import WeaveDICore

/// Thrown by ``Container/verifyOrThrow(_:)``: some of the critical types cannot be resolved.
public struct VerificationError: Error, CustomStringConvertible, LocalizedError {
    /// One entry per type that cannot be resolved, in the order they were asked for.
    public let failures: [Failure]

    /// Every failure, one per line.
    public var description: String {
        "Critical dependencies cannot be resolved:\n" + failures.map { "- \($0.description)" }.joined(separator: "\n")
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// A type ``Container/verify(_:)`` could not resolve, and why.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The type that was asked for.
        public let type: Any.Type
        /// The type as messages spell it (`MyApp.DatabaseService`).
        public let typeName: String
        /// Why it could not be resolved: it is not registered, something it needs is missing, a
        /// cycle, or a factory threw.
        public let error: DIError

        /// "`MyApp.DatabaseService` cannot be resolved: …".
        public var description: String { "\(typeName) cannot be resolved: \(error.description)" }
    }
}
