import Foundation
import WeaveDICore

/// Runs `operation`, cancelling it and throwing ``ModuleLoadingError/timedOut(after:)`` if it has not
/// finished within `seconds`. Same as ``ModuleLoading/withTimeout(_:isolation:operation:)-(TimeInterval,_,_)``;
/// an app's own `withTimeout` takes precedence in its code.
public func withTimeout<T: Sendable>(
    _ seconds: TimeInterval,
    isolation: isolated (any Actor)? = #isolation,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await ModuleLoading.withTimeout(seconds, isolation: isolation, operation: operation)
}

/// Runs `operation` up to `maxAttempts` times, `delay` seconds apart, honouring cancellation. Same
/// as ``ModuleLoading/withRetry(maxAttempts:delay:isolation:operation:)-(_,TimeInterval,_,_)``; an
/// app's own `withRetry` takes precedence in its code.
public func withRetry<T>(
    maxAttempts: Int,
    delay: TimeInterval = 0,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> T
) async throws -> T {
    try await ModuleLoading.withRetry(
        maxAttempts: maxAttempts, delay: delay, isolation: isolation, operation: operation)
}
