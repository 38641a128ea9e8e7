import Foundation
import WeaveDICore

/// Modules whose values come from async work, made concurrently.
///
/// Each definition runs in its own child task, under its own timeout and retry policy. A failing
/// definition is reported in the returned ``AsyncModuleReport`` (and logged as an error); the
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
    public var definitions: [AsyncModuleDefinition]

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
            AsyncModuleDefinition(
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
    public func makeAll() async -> AsyncModuleReport {
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
        var failures: [AsyncModuleFailure] = []
        for (definition, result) in zip(definitions, results) {
            switch result {
            case .success(let module)?:
                modules.append(module)
                loaded.append(definition.label)
            case .failure(let error)?:
                failures.append(AsyncModuleFailure(label: definition.label, error: error))
            case nil:
                break // Unreachable: the group yields one result per definition.
            }
        }
        for failure in failures {
            DiagnosticsCenter.shared.logError("Async module \(failure.label) failed: \(failure.error)")
        }
        return AsyncModuleReport(
            modules: modules, loaded: loaded, failures: failures,
            duration: monotonicSeconds() - start)
    }

    /// Makes every module concurrently (see ``makeAll()``) and registers those that succeeded into
    /// `container` (``Container/shared`` by default), in definition order.
    @discardableResult
    public func registerAll(into container: Container = Container.shared) async -> AsyncModuleReport {
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
