import Foundation
import WeaveDICore

/// Modules whose values come from async work, made concurrently.
///
/// Each definition runs in its own child task, under its own timeout and retry policy. A failing
/// definition is reported in the returned ``Report`` (and logged as an error); the
/// others are still made and registered.
///
/// ```swift
/// var group = AsyncModuleGroup()
/// group.add("configuration", timeout: 5) {
///     let config = try await RemoteConfigService.fetchConfiguration()
///     return Module(RemoteConfiguration.self) { config }
/// }
/// group.addValue(DatabaseService.self, timeout: 10, maxAttempts: 3, retryDelay: 1) {
///     try await DatabaseManager.initialize(connectionString: url)
/// }
/// let report = await group.registerAll()        // into WeaveDI.Container.shared
/// for failure in report.failures { print("⚠️ \(failure)") }
/// ```
public struct AsyncModuleGroup: Sendable {
    /// The definitions, in the order their modules are registered.
    public var definitions: [Definition]

    /// An empty group.
    public init() {
        self.definitions = []
    }

    /// Adds a definition whose `make` returns a ``Module`` (the seed's `make…Module() async throws`
    /// functions fit directly).
    public mutating func add(
        _ label: String,
        timeout: TimeInterval? = nil,
        maxAttempts: Int = 1,
        retryDelay: TimeInterval = 0,
        make: @escaping @Sendable () async throws -> Module
    ) {
        definitions.append(
            Definition(
                label, timeout: timeout, maxAttempts: maxAttempts,
                retryDelay: retryDelay, make: make))
    }

    /// Adds a definition for `type` whose single instance is produced by async `value`: once made,
    /// every resolution of `type` (under `name`) returns that instance. `label` defaults to the
    /// type's name.
    public mutating func addValue<T>(
        _ type: T.Type,
        name: String? = nil,
        label: String? = nil,
        timeout: TimeInterval? = nil,
        maxAttempts: Int = 1,
        retryDelay: TimeInterval = 0,
        file: String = #fileID,
        line: Int = #line,
        value: @escaping @Sendable () async throws -> T
    ) {
        add(
            label ?? ResolutionFrame.displayName(type, name), timeout: timeout, maxAttempts: maxAttempts,
            retryDelay: retryDelay
        ) {
            // The instance is handed over to the container, which shares it like any registered instance.
            let instance = UncheckedBox(try await value())
            return Module(type, name: name, scope: .singleton, file: file, line: line) { instance.value }
        }
    }

    /// Makes every module concurrently and reports which succeeded and which failed (each failure
    /// is also logged). Registers nothing.
    public func makeAll() async -> Report {
        let start = monotonicSeconds()
        let definitions = self.definitions
        // Each child returns a struct, and the results are the group body's return value: a
        // `(Int, Result<Module, any Error>)` child result, written into a captured array, came back
        // corrupted from Swift 6.3's optimizer in release builds (indexes out of range, results
        // lost). `ModulesAsyncTests` runs in release in CI.
        let results = await withTaskGroup(of: MadeModule.self, returning: [Result<Module, any Error>?].self) { group in
            for (index, definition) in definitions.enumerated() {
                group.addTask {
                    do { return MadeModule(index: index, result: .success(try await definition.makeModule())) } catch {
                        return MadeModule(index: index, result: .failure(error))
                    }
                }
            }
            var results = [Result<Module, any Error>?](repeating: nil, count: definitions.count)
            for await made in group { results[made.index] = made.result }
            return results
        }
        var modules: [Module] = []
        var loaded: [String] = []
        var failures: [Failure] = []
        for (definition, result) in zip(definitions, results) {
            switch result {
            case .success(let module)?:
                modules.append(module)
                loaded.append(definition.label)
            case .failure(let error)?:
                failures.append(Failure(label: definition.label, error: error))
            case nil:
                break // Unreachable: the group yields one result per definition.
            }
        }
        for failure in failures {
            ObservationCenter.shared.logError("Async module \(failure.label) failed: \(failure.error)")
        }
        return Report(
            modules: modules, loaded: loaded, failures: failures,
            duration: monotonicSeconds() - start)
    }

    /// Makes every module concurrently (see ``makeAll()``) and registers those that succeeded into
    /// `container` (``Container/shared`` by default), in definition order.
    @discardableResult
    public func registerAll(into container: Container = Container.shared) async -> Report {
        let report = await makeAll()
        for module in report.modules { module.register(into: container) }
        return report
    }
}

/// What one child task of ``AsyncModuleGroup/makeAll()`` made: the definition's position and its
/// module or error.
private struct MadeModule: Sendable {
    let index: Int
    let result: Result<Module, any Error>
}

extension AsyncModuleGroup {
    /// One module whose making needs async work (a remote configuration, a database connection), with
    /// the time limit and retries that apply to it. ``AsyncModuleGroup`` runs many concurrently.
    public struct Definition: Sendable {
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

    /// An async module that could not be made, and why.
    public struct Failure: Sendable, CustomStringConvertible {
        /// The definition's label.
        public let label: String
        /// The error its last attempt threw (``ModuleLoadingError/timedOut(after:)`` for a timeout).
        public let error: any Error

        /// The label and the error, for logs.
        public var description: String { "\(label): \(error)" }
    }

    /// What ``AsyncModuleGroup`` made: the modules that succeeded and the definitions that failed.
    /// One failure never stops the others.
    public struct Report: Sendable, CustomStringConvertible {
        /// The modules made, in definition order.
        public let modules: [Module]
        /// The labels of the definitions that succeeded, in definition order.
        public let loaded: [String]
        /// The definitions that failed, with their errors, in definition order.
        public let failures: [Failure]
        /// Seconds the whole group took.
        public let duration: TimeInterval

        /// Whether every definition succeeded.
        public var allSucceeded: Bool { failures.isEmpty }

        /// The failure of the definition labelled `label`, if it failed.
        public func failure(for label: String) -> Failure? {
            failures.first { $0.label == label }
        }

        /// A one-line summary: how many succeeded, each failure, and the duration.
        public var description: String {
            var text = "\(loaded.count) async modules made"
            if !failures.isEmpty {
                text += ", \(failures.count) failed: " + failures.map(\.description).joined(separator: "; ")
            }
            return text + String(format: " (%.3f ms)", duration * 1000)
        }
    }
}
