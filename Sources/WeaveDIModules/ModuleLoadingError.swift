import Foundation
import WeaveDICore

/// Why a ``ModuleLoading`` helper gave up.
public enum ModuleLoadingError: Error, LocalizedError, CustomStringConvertible, Equatable {
    /// The operation did not finish within the given number of seconds (it was cancelled).
    case timedOut(after: TimeInterval)
    /// A helper was called with an argument it cannot honour (the message says which and why).
    case invalidArgument(String)

    /// What went wrong and what the limit or argument was.
    public var description: String {
        switch self {
        case .timedOut(let seconds):
            return "The operation did not finish within \(seconds) seconds and was cancelled."
        case .invalidArgument(let detail):
            return "Invalid argument: \(detail)."
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
