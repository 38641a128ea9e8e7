import Foundation

/// Holds an app's module factories in layer order, checks their modules, and registers them.
///
/// The built-in ``repositoryFactory``, ``useCaseFactory`` and ``scopeFactory`` are always present;
/// the app adds its own factories (infrastructure, presentation, environment-specific, ...) with
/// ``add(_:layer:name:)``. ``registerAll(to:)`` makes every module, validates the whole set, and
/// only then registers, factory by factory in ``ModuleLayer`` order, each factory's modules
/// concurrently in batches.
///
/// ```swift
/// var manager = ModuleFactoryManager()
/// manager.repositoryFactory.setup()            // the app's extension methods
/// manager.useCaseFactory.setup()
/// var infrastructure = InfrastructureModuleFactory()
/// infrastructure.setup(for: .production, config: configuration)
/// manager.add(infrastructure, layer: .infrastructure)
///
/// try await manager.registerAll()               // into WeaveDI.Container.shared
/// let stats = manager.getRegistrationStatistics()
/// print("Registered \(stats.totalModules) modules across \(stats.factories.count) factories")
/// ```
///
/// The manager is a value: a factory is copied when added, so finish setting it up first.
public struct ModuleFactoryManager: Sendable {
    /// The built-in repository-layer factory.
    public var repositoryFactory: RepositoryModuleFactory
    /// The built-in use-case-layer factory.
    public var useCaseFactory: UseCaseModuleFactory
    /// The built-in scoped-dependency factory.
    public var scopeFactory: ScopeModuleFactory
    /// How many modules are registered concurrently in one batch (one task group per batch).
    /// Must be at least 1; ``registerAll(to:)`` throws ``ModuleFactoryError/invalidConfiguration(_:)`` otherwise.
    public var batchSize: Int
    /// Whether validation checks that every declared dependency of a module (see
    /// ``RegisterModule/makeDependency(_:dependencies:name:scope:file:line:factory:)``) is provided by
    /// another module in the manager or already registered in the target container. Turn it off when
    /// some dependencies are registered later (for example by async modules).
    public var validatesDeclaredDependencies: Bool

    private var added: [ManagedModuleFactory] = []
    private var lastRegistration: ModuleRegistrationStatistics?

    /// A manager with empty built-in factories.
    public init(batchSize: Int = 256, validatesDeclaredDependencies: Bool = true) {
        self.repositoryFactory = RepositoryModuleFactory()
        self.useCaseFactory = UseCaseModuleFactory()
        self.scopeFactory = ScopeModuleFactory()
        self.batchSize = batchSize
        self.validatesDeclaredDependencies = validatesDeclaredDependencies
    }

    /// Adds an app factory in `layer` (after the factories already in that layer). `name` labels it
    /// in statistics and errors; it defaults to the factory's type name.
    public mutating func add(_ factory: some ModuleFactory & Sendable, layer: ModuleLayer = .custom, name: String? = nil) {
        added.append(ManagedModuleFactory(
            name: name ?? String(describing: type(of: factory)), layer: layer, factory: factory))
    }

    /// Every factory in registration order: by layer, and within a layer the built-in one first,
    /// then added ones in the order they were added.
    var orderedFactories: [ManagedModuleFactory] {
        let all = [
            ManagedModuleFactory(name: "RepositoryModuleFactory", layer: .repository, factory: repositoryFactory),
            ManagedModuleFactory(name: "UseCaseModuleFactory", layer: .useCase, factory: useCaseFactory),
            ManagedModuleFactory(name: "ScopeModuleFactory", layer: .scope, factory: scopeFactory),
        ] + added
        return all.enumerated()
            .sorted { ($0.element.layer, $0.offset) < ($1.element.layer, $1.offset) }
            .map(\.element)
    }

    /// Makes every module of every factory, in registration order. Builds no instance.
    public func makeAllModules() -> [Module] {
        orderedFactories.flatMap { $0.factory.makeAllModules() }
    }

    /// Makes every module and checks the set without registering anything: there is at least one
    /// module, each is valid, no two register the same type under the same name, and (when
    /// ``validatesDeclaredDependencies``) every declared dependency is provided by a module here or
    /// registered in `container`.
    public func validate(against container: Container = Container.shared) throws {
        try Self.validate(made(), against: container, checkingDependencies: validatesDeclaredDependencies)
    }

    /// Validates (see ``validate(against:)``) and then registers every module into `container`
    /// (``Container/shared`` by default, evaluated at the call): factory by factory in layer order,
    /// each factory's modules concurrently in batches of ``batchSize``. If validation fails, nothing
    /// is registered. Nothing is built: instances are built when resolved.
    ///
    /// Returns (and keeps, for ``getRegistrationStatistics()``) the counts and durations.
    @discardableResult
    public mutating func registerAll(to container: Container = Container.shared) async throws -> ModuleRegistrationStatistics {
        guard batchSize >= 1 else {
            throw ModuleFactoryError.invalidConfiguration("batchSize must be at least 1, but is \(batchSize)")
        }
        let start = monotonicSeconds()
        let made = made()
        try Self.validate(made, against: container, checkingDependencies: validatesDeclaredDependencies)
        let validated = monotonicSeconds()
        let total = made.reduce(0) { $0 + $1.modules.count }
        DiagnosticsCenter.shared.logInfo("Registering \(total) modules from \(made.count) factories")

        var factories: [FactoryRegistrationStatistics] = []
        factories.reserveCapacity(made.count)
        for (entry, modules) in made {
            let factoryStart = monotonicSeconds()
            let batches = await Self.registerInBatches(modules, into: container, batchSize: batchSize)
            factories.append(FactoryRegistrationStatistics(
                name: entry.name, layer: entry.layer, moduleCount: modules.count,
                registrationDuration: monotonicSeconds() - factoryStart, batchCount: batches))
        }
        let statistics = ModuleRegistrationStatistics(
            factories: factories, validationDuration: validated - start, totalDuration: monotonicSeconds() - start)
        lastRegistration = statistics
        DiagnosticsCenter.shared.logInfo("Module registration completed: \(statistics)")
        return statistics
    }

    /// Counts per factory and layer. After ``registerAll(to:)`` these describe that registration,
    /// with its durations; before it, what the factories would register now (durations `nil`).
    public func getRegistrationStatistics() -> ModuleRegistrationStatistics {
        if let lastRegistration { return lastRegistration }
        return ModuleRegistrationStatistics(
            factories: orderedFactories.map {
                FactoryRegistrationStatistics(name: $0.name, layer: $0.layer, moduleCount: $0.factory.makeAllModules().count,
                                              registrationDuration: nil, batchCount: 0)
            },
            validationDuration: nil, totalDuration: nil)
    }

    // MARK: Internals

    private func made() -> [(entry: ManagedModuleFactory, modules: [Module])] {
        orderedFactories.map { ($0, $0.factory.makeAllModules()) }
    }

    static func validate(
        _ made: [(entry: ManagedModuleFactory, modules: [Module])],
        against container: Container,
        checkingDependencies: Bool
    ) throws {
        guard made.contains(where: { !$0.modules.isEmpty }) else { throw ModuleFactoryError.noModulesFound }
        var provided: [RegistryKey: ModuleOrigin] = [:]
        provided.reserveCapacity(made.reduce(0) { $0 + $1.modules.count })
        for (entry, modules) in made {
            for module in modules {
                let origin = ModuleOrigin(factory: entry.name, site: module.site)
                if let reason = module.invalidityReason {
                    throw ModuleFactoryError.invalidModule(module.description, origin: origin, reason: reason)
                }
                if let first = provided.updateValue(origin, forKey: module.key) {
                    throw ModuleFactoryError.duplicateModule(
                        ResolutionFrame.displayName(module.type, module.name), first: first, second: origin)
                }
            }
        }
        guard checkingDependencies else { return }
        for (entry, modules) in made {
            for module in modules {
                for dependency in module.dependencies {
                    let key = RegistryKey(anyType: dependency)
                    if provided[key] == nil && !container.isRegistered(key: key) {
                        throw ModuleFactoryError.missingDependency(
                            module: module.description, dependency: String(reflecting: dependency),
                            origin: ModuleOrigin(factory: entry.name, site: module.site))
                    }
                }
            }
        }
    }

    /// Registers `modules` in consecutive batches, each batch concurrently in a task group; returns
    /// the number of batches.
    ///
    /// A batch is split into one contiguous run per processor rather than one task per module:
    /// registration is a short critical section in the registry, so a task per module would cost
    /// more to schedule than the registration itself.
    static func registerInBatches(_ modules: [Module], into container: Container, batchSize: Int) async -> Int {
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var batches = 0
        var index = modules.startIndex
        while index < modules.endIndex {
            let end = min(index + batchSize, modules.endIndex)
            let batch = modules[index..<end]
            let runLength = (batch.count + workers - 1) / workers
            await withTaskGroup(of: Void.self) { group in
                var runStart = batch.startIndex
                while runStart < batch.endIndex {
                    let run = batch[runStart..<min(runStart + runLength, batch.endIndex)]
                    group.addTask { for module in run { module.register(into: container) } }
                    runStart = run.endIndex
                }
            }
            batches += 1
            index = end
        }
        return batches
    }
}
