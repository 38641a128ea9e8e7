import Foundation
import WeaveDICore

/// The timeout and retry loops behind ``withTimeout(_:isolation:operation:)`` and
/// ``withRetry(maxAttempts:delay:isolation:operation:)`` (``AsyncModuleGroup`` calls them here,
/// where an app's own free functions of the same names cannot shadow them).
enum ModuleLoading {
    /// Runs `operation`, cancelling it and throwing ``ModuleLoadingError/timedOut(after:)`` if it has
    /// not finished within `seconds`.
    ///
    /// The operation runs in a child task, so it stops as soon as it reacts to cancellation; the
    /// call returns when it has. If the calling task is cancelled, the operation is cancelled too and
    /// the call throws what the operation throws (usually `CancellationError`). A negative or NaN
    /// `seconds` throws ``ModuleLoadingError/invalidArgument(_:)``; `.infinity` means no limit.
    static func withTimeout<T: Sendable>(
        _ seconds: TimeInterval,
        isolation: isolated (any Actor)? = #isolation,
        operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard seconds >= 0 else {
            throw ModuleLoadingError.invalidArgument("timeout must be zero or more seconds, got \(seconds)")
        }
        if seconds == .infinity { return try await operation() }
        // Task.sleep takes UInt64 nanoseconds; centuries-long limits are clamped rather than overflowing.
        let nanoseconds = UInt64(min(seconds * 1_000_000_000, Double(UInt64.max / 2)))
        return try await withThrowingTaskGroup(of: T.self, returning: T.self, isolation: isolation) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: nanoseconds)
                throw ModuleLoadingError.timedOut(after: seconds)
            }
            // The first child to finish decides; the other is cancelled (and awaited by the group).
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// Runs `operation` up to `maxAttempts` times, waiting `delay` seconds between attempts, and
    /// returns the first success or throws the last failure.
    ///
    /// Cancellation stops the retrying: a cancelled task makes no further attempt and throws
    /// `CancellationError`, and a `CancellationError` from the operation is rethrown at once.
    /// `maxAttempts` below 1 or a negative `delay` throws ``ModuleLoadingError/invalidArgument(_:)``.
    static func withRetry<T>(
        maxAttempts: Int,
        delay: TimeInterval = 0,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> T
    ) async throws -> T {
        guard maxAttempts >= 1 else {
            throw ModuleLoadingError.invalidArgument("maxAttempts must be at least 1, got \(maxAttempts)")
        }
        guard delay >= 0 else {
            throw ModuleLoadingError.invalidArgument("delay must be zero or more seconds, got \(delay)")
        }
        var attempt = 1
        while true {
            try Task.checkCancellation()
            do {
                return try await operation()
            } catch let error as CancellationError {
                throw error
            } catch {
                if attempt >= maxAttempts { throw error }
                try Task.checkCancellation()
                ObservationCenter.shared.logWarning("Attempt \(attempt) of \(maxAttempts) failed, retrying: \(error)")
                if delay > 0 {
                    try await Task.sleep(nanoseconds: UInt64(min(delay * 1_000_000_000, Double(UInt64.max / 2))))
                }
                attempt += 1
            }
        }
    }
}

/// Why ``withTimeout(_:isolation:operation:)`` or ``withRetry(maxAttempts:delay:isolation:operation:)``
/// gave up.
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

/// Runs `operation`, cancelling it and throwing ``ModuleLoadingError/timedOut(after:)`` if it has
/// not finished within `seconds`.
///
/// The operation runs in a child task, so it stops as soon as it reacts to cancellation; the
/// call returns when it has. If the calling task is cancelled, the operation is cancelled too and
/// the call throws what the operation throws (usually `CancellationError`). A negative or NaN
/// `seconds` throws ``ModuleLoadingError/invalidArgument(_:)``; `.infinity` means no limit.
///
/// A helper for modules whose values come from async work; an app's own `withTimeout` takes
/// precedence in its code.
public func withTimeout<T: Sendable>(
    _ seconds: TimeInterval,
    isolation: isolated (any Actor)? = #isolation,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await ModuleLoading.withTimeout(seconds, isolation: isolation, operation: operation)
}

/// Runs `operation` up to `maxAttempts` times, waiting `delay` seconds between attempts, and
/// returns the first success or throws the last failure.
///
/// Cancellation stops the retrying: a cancelled task makes no further attempt and throws
/// `CancellationError`, and a `CancellationError` from the operation is rethrown at once.
/// `maxAttempts` below 1 or a negative `delay` throws ``ModuleLoadingError/invalidArgument(_:)``.
///
/// A helper for modules whose values come from async work; an app's own `withRetry` takes
/// precedence in its code.
public func withRetry<T>(
    maxAttempts: Int,
    delay: TimeInterval = 0,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> T
) async throws -> T {
    try await ModuleLoading.withRetry(
        maxAttempts: maxAttempts, delay: delay, isolation: isolation, operation: operation)
}
