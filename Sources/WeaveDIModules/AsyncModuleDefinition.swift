import Foundation
import WeaveDICore

/// One module whose making needs async work (a remote configuration, a database connection), with
/// the time limit and retries that apply to it. ``AsyncModuleGroup`` runs many concurrently.
public struct AsyncModuleDefinition: Sendable {
    /// A label for reports and logs (for example "database").
    public let label: String
    /// Seconds each attempt may take before it is cancelled, or `nil` for no limit.
    public let timeout: TimeInterval?
    /// How many times making the module is tried before it counts as failed (at least 1).
    public let maxAttempts: Int
    /// Seconds to wait between attempts.
    public let retryDelay: TimeInterval
    private let make: @Sendable () async throws -> Module

    /// A definition that makes its module with `make`.
    public init(
        _ label: String,
        timeout: TimeInterval? = nil,
        maxAttempts: Int = 1,
        retryDelay: TimeInterval = 0,
        make: @escaping @Sendable () async throws -> Module
    ) {
        self.label = label
        self.timeout = timeout
        self.maxAttempts = maxAttempts
        self.retryDelay = retryDelay
        self.make = make
    }

    /// Makes the module: each attempt under ``timeout`` (if any), up to ``maxAttempts`` attempts.
    public func makeModule() async throws -> Module {
        let make = self.make
        let timeout = self.timeout
        return try await ModuleLoading.withRetry(maxAttempts: maxAttempts, delay: retryDelay) {
            guard let timeout else { return try await make() }
            return try await ModuleLoading.withTimeout(timeout, operation: make)
        }
    }
}
