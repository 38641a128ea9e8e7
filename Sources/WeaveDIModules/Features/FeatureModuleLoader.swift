import WeaveDICore

/// Configures ``FeatureModule``s in dependency order, each exactly once: all at start with
/// ``loadAll()``, or on demand with ``load(_:)-(String)``, which loads a feature and whatever it
/// depends on.
///
/// Guarantees:
/// - A feature's dependencies are configured (successfully) before it.
/// - A feature is configured at most once while it succeeds: concurrent `load` calls for the same
///   feature wait for the same in-flight configuration. A feature whose `configure()` threw is not
///   loaded, and a later `load` tries again.
/// - A dependency cycle or an unknown feature name is a thrown ``FeatureModuleError`` naming the
///   path, detected before anything on that path is configured.
/// - A cycle made by `configure()` itself — a feature whose `configure()` loads a feature that
///   (through its own `configure()` or its ``FeatureModule/dependencies()``) needs the first one,
///   two, three or more features deep, in one task or across the tasks of concurrent `load` calls —
///   is thrown at once as ``FeatureModuleError/circularDependency(path:)`` naming the whole path
///   (not wrapped in ``FeatureModuleError/configurationFailed(_:underlying:)``), never a wait that
///   cannot end. Every feature on the path is left not loaded and not in flight: a later `load`
///   tries it again.
///
/// A configuration runs in its own task, inheriting the task-local values (such as a container
/// bound with ``Container/withShared(_:isolation:operation:)``) of the `load` call that started it;
/// cancelling a caller does not cancel a configuration others may be waiting for.
///
/// ```swift
/// let loader = try FeatureModuleLoader([
///     CoreFeatureModule.self, NetworkFeatureModule.self, UserFeatureModule.self,
///     PaymentFeatureModule.self, OrderFeatureModule.self,
/// ])
/// try await loader.load("UserFeature")       // Core, Network, then User
/// try await loader.loadAll()                 // the rest, in dependency order
/// ```
public actor FeatureModuleLoader {
    private var modules: [String: any FeatureModule.Type] = [:]
    private var registrationOrder: [String] = []
    private var loadedNames: Set<String> = []
    private var configurationOrder: [String] = []
    private var inFlight: [String: Task<Void, any Error>] = [:]
    /// Feature whose configuration is waiting -> the in-flight features it waits for (the
    /// loader's wait-for graph, for cycles across tasks).
    private var waits: [String: [String]] = [:]

    /// The features whose configurations the current task runs inside, outermost first, for
    /// every loader (a configuration task inherits its starter's chain and adds its feature).
    private struct Frame: Sendable {
        let loader: ObjectIdentifier
        let name: String
    }
    @TaskLocal private static var chain: [Frame] = []

    /// This loader's features whose configurations the current task runs inside.
    private var ancestors: [String] {
        let me = ObjectIdentifier(self)
        return Self.chain.filter { $0.loader == me }.map(\.name)
    }

    /// A loader that knows no features yet.
    public init() {}

    /// A loader that knows `modules`. Throws ``FeatureModuleError/duplicateName(_:existing:new:)``
    /// if two different types share a name.
    public init(_ modules: [any FeatureModule.Type]) throws {
        var known: [String: any FeatureModule.Type] = [:]
        var order: [String] = []
        for module in modules { try Self.insert(module, into: &known, order: &order) }
        self.modules = known
        self.registrationOrder = order
    }

    /// Makes `modules` known to the loader (configuring nothing). Registering a type again is
    /// harmless; a different type under a known name throws ``FeatureModuleError/duplicateName(_:existing:new:)``.
    public func register(_ modules: [any FeatureModule.Type]) throws {
        for module in modules { try add(module) }
    }

    /// Makes `module` known to the loader (configuring nothing).
    public func register(_ module: any FeatureModule.Type) throws {
        try add(module)
    }

    /// Configures the feature named `name` and, first, everything it depends on, skipping what is
    /// already loaded. Returns when the feature is loaded; throws if it or a dependency is unknown,
    /// the dependencies form a cycle, or a `configure()` throws.
    public func load(_ name: String) async throws {
        if loadedNames.contains(name) { return }
        for next in try plan([name]) { try await loadOne(next) }
    }

    /// Registers `module` if needed and loads it (see ``load(_:)-(String)``).
    public func load(_ module: any FeatureModule.Type) async throws {
        try add(module)
        try await load(module.name)
    }

    /// Configures every known feature not yet loaded, one at a time, in dependency order (features
    /// with no order between them keep their registration order).
    public func loadAll() async throws {
        for next in try plan(registrationOrder) { try await loadOne(next) }
    }

    /// Whether the feature named `name` has been configured.
    public func isLoaded(_ name: String) -> Bool { loadedNames.contains(name) }

    /// The features configured so far, in the order their configuration finished.
    public var loadedModules: [String] { configurationOrder }

    /// The features known to the loader, in registration order.
    public var registeredModules: [String] { registrationOrder }

    /// The features that loading `names` (every known feature when `nil`) would configure, in the
    /// order it would configure them. Throws the same cycle and unknown-name errors loading would.
    public func loadOrder(for names: [String]? = nil) throws -> [String] {
        try plan(names ?? registrationOrder)
    }

    // MARK: Internals

    private func add(_ module: any FeatureModule.Type) throws {
        try Self.insert(module, into: &modules, order: &registrationOrder)
    }

    private static func insert(
        _ module: any FeatureModule.Type,
        into modules: inout [String: any FeatureModule.Type],
        order: inout [String]
    ) throws {
        let name = module.name
        if let existing = modules[name] {
            guard ObjectIdentifier(existing) == ObjectIdentifier(module) else {
                throw FeatureModuleError.duplicateName(
                    name, existing: String(reflecting: existing), new: String(reflecting: module))
            }
            return
        }
        modules[name] = module
        order.append(name)
    }

    /// The not-yet-loaded features reachable from `roots`, dependencies first. Checks the whole
    /// reachable graph, so a cycle or unknown name is found before anything is configured.
    private func plan(_ roots: [String]) throws -> [String] {
        var order: [String] = []
        var finished: Set<String> = []
        var path: [String] = []
        var onPath: Set<String> = []
        let ancestors = ancestors

        func visit(_ name: String) throws {
            if loadedNames.contains(name) || finished.contains(name) { return }
            // A configuration this task runs inside needs its own feature again: waiting for it
            // would be waiting for ourselves.
            if let index = ancestors.firstIndex(of: name) {
                throw FeatureModuleError.circularDependency(path: Array(ancestors[index...]) + path + [name])
            }
            if onPath.contains(name) {
                let start = path.firstIndex(of: name) ?? path.startIndex
                throw FeatureModuleError.circularDependency(path: Array(path[start...]) + [name])
            }
            guard let module = modules[name] else {
                throw FeatureModuleError.unknownModule(name, path: path + [name])
            }
            path.append(name)
            onPath.insert(name)
            for dependency in module.dependencies() { try visit(dependency) }
            path.removeLast()
            onPath.remove(name)
            finished.insert(name)
            order.append(name)
        }

        for root in roots { try visit(root) }
        return order
    }

    /// Configures one feature whose dependencies are loaded, or waits for the configuration another
    /// caller already started.
    private func loadOne(_ name: String) async throws {
        if loadedNames.contains(name) { return }
        let ancestors = ancestors
        if let index = ancestors.firstIndex(of: name) {
            throw FeatureModuleError.circularDependency(path: Array(ancestors[index...]) + [name])
        }
        let task: Task<Void, any Error>
        let waiter = ancestors.last
        if let running = inFlight[name] {
            task = running
            // Another task configures `name`. If that configuration waits, directly or through
            // others, for the one this task runs inside, neither can finish.
            if let waiter {
                if let cycle = waitPath(from: name, to: waiter) {
                    throw FeatureModuleError.circularDependency(path: [waiter] + cycle)
                }
            }
        } else {
            guard let module = modules[name] else { throw FeatureModuleError.unknownModule(name, path: [name]) }
            let chain = Self.chain + [Frame(loader: ObjectIdentifier(self), name: name)]
            task = Task { try await Self.$chain.withValue(chain) { try await Self.configure(module, named: name) } }
            inFlight[name] = task
        }
        if let waiter { waits[waiter, default: []].append(name) }
        defer {
            if let waiter, let index = waits[waiter]?.firstIndex(of: name) {
                waits[waiter]?.remove(at: index)
                if waits[waiter]?.isEmpty == true { waits[waiter] = nil }
            }
        }
        do {
            try await task.value
        } catch {
            if inFlight[name] == task { inFlight[name] = nil }
            throw error
        }
        // Every waiter records the success; only the first one changes anything.
        if inFlight[name] == task { inFlight[name] = nil }
        if loadedNames.insert(name).inserted { configurationOrder.append(name) }
    }

    /// The features from `start` to `target` along the wait-for graph (`start` first, `target`
    /// last), or `nil` when `start`'s configuration does not wait for `target`'s.
    private func waitPath(from start: String, to target: String) -> [String]? {
        var visited: Set<String> = []
        func search(_ name: String) -> [String]? {
            if name == target { return [name] }
            guard visited.insert(name).inserted else { return nil }
            for next in waits[name] ?? [] {
                if let rest = search(next) { return [name] + rest }
            }
            return nil
        }
        return search(start)
    }

    private static func configure(_ module: any FeatureModule.Type, named name: String) async throws {
        ObservationCenter.shared.logInfo("Configuring feature module \(name)")
        do {
            try await module.configure()
        } catch let error as FeatureModuleError {
            // A cycle names the whole path already; wrapping it at every level would bury it.
            if case .circularDependency = error { throw error }
            ObservationCenter.shared.logError("Feature module \(name) failed to configure: \(error)")
            throw FeatureModuleError.configurationFailed(name, underlying: error)
        } catch {
            ObservationCenter.shared.logError("Feature module \(name) failed to configure: \(error)")
            throw FeatureModuleError.configurationFailed(name, underlying: error)
        }
        ObservationCenter.shared.logInfo("Configured feature module \(name)")
    }
}
