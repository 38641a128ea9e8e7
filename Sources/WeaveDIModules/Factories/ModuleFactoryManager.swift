import Foundation
import WeaveDICore

/// Holds an app's module factories in layer order, sets them up for an environment, checks their
/// modules, and registers them.
///
/// Made for an environment and a configuration (see ``ModuleFactoryConfiguration``), the manager
/// holds one factory per layer — the app's ``infrastructureFactory``, the built-in
/// ``repositoryFactory``, ``useCaseFactory`` and ``scopeFactory``, the app's
/// ``presentationFactory`` — and ``setupAllFactories()`` fills them in for that environment:
///
/// ```swift
/// var manager = ModuleFactoryManager(
///     environment: .production,
///     configuration: try AppConfiguration.load(),
///     logger: ConsoleLogger()
/// )
/// await manager.setupAllFactories()
/// try await manager.registerAll()                 // into WeaveDI.Container.shared
///
/// let stats = manager.getRegistrationStatistics()
/// print("🎯 Registered \(stats.totalModules) modules across \(stats.factories.count) factories")
/// ```
///
/// Without a configuration, ``init(batchSize:validatesDeclaredDependencies:)`` makes a manager with
/// the three built-in factories only; the app sets them up itself and adds its own factories with
/// ``add(_:layer:name:)``.
///
/// ``registerAll(to:)`` makes every module, validates the whole set, and only then registers,
/// factory by factory in ``ModuleLayer`` order (infrastructure, repository, use case, service, scope,
/// presentation, custom), each factory's modules concurrently in batches.
///
/// The manager is a value: a factory is copied when added, so finish setting it up first; a copy
/// made before ``setupAllFactories()`` or ``registerAll(to:)`` does not see what they did.
public struct ModuleFactoryManager: Sendable {
    /// The app's infrastructure-layer factory: the configuration's
    /// ``ModuleFactoryConfiguration/InfrastructureFactory``, made empty by
    /// ``init(environment:configuration:logger:)`` and filled in by ``setupAllFactories()``.
    /// Registered first. A manager made without a configuration has an empty one, which is not
    /// listed in its statistics (add infrastructure factories with ``add(_:layer:name:)``).
    public private(set) var infrastructureFactory: any LayerModuleFactory
    /// The built-in repository-layer factory.
    public var repositoryFactory: RepositoryModuleFactory
    /// The built-in use-case-layer factory.
    public var useCaseFactory: UseCaseModuleFactory
    /// The built-in scoped-dependency factory.
    public var scopeFactory: ScopeModuleFactory
    /// The app's presentation-layer factory: the configuration's
    /// ``ModuleFactoryConfiguration/PresentationFactory``, made empty by
    /// ``init(environment:configuration:logger:)`` and filled in by ``setupAllFactories()``.
    /// A manager made without a configuration has an empty one, which is not listed in its
    /// statistics.
    public private(set) var presentationFactory: any LayerModuleFactory
    /// How many modules are registered concurrently in one batch (one task group per batch).
    /// Must be at least 1; ``registerAll(to:)`` throws ``ModuleFactoryError/invalidConfiguration(_:)`` otherwise.
    public var batchSize: Int
    /// Whether validation checks that every declared dependency of a module (see
    /// ``RegisterModule/makeDependency(_:dependencies:name:scope:file:line:factory:)->Module``) is provided by
    /// another module in the manager or already registered in the target container. Turn it off when
    /// some dependencies are registered later (for example by async modules).
    public var validatesDeclaredDependencies: Bool

    private var added: [ManagedModuleFactory] = []
    private var lastRegistration: ModuleRegistrationStatistics?
    private let logger: (any ModuleFactoryLogger)?
    /// The environment and configuration given to `init(environment:configuration:logger:)`;
    /// `nil` for a manager made without them.
    private let setup: Setup?

    /// A manager with empty built-in factories and no configuration: the app sets the factories up
    /// itself (``setupAllFactories()`` has nothing to do) and adds its own with ``add(_:layer:name:)``.
    public init(batchSize: Int = 256, validatesDeclaredDependencies: Bool = true) {
        self.infrastructureFactory = UnconfiguredLayerFactory()
        self.repositoryFactory = RepositoryModuleFactory()
        self.useCaseFactory = UseCaseModuleFactory()
        self.scopeFactory = ScopeModuleFactory()
        self.presentationFactory = UnconfiguredLayerFactory()
        self.batchSize = batchSize
        self.validatesDeclaredDependencies = validatesDeclaredDependencies
        self.logger = nil
        self.setup = nil
    }

    /// A manager for `environment`: its five factories are empty — the app's infrastructure and
    /// presentation factories made with `init()`, and the built-in repository, use-case and scope
    /// factories — until ``setupAllFactories()`` has `configuration` set them up for `environment`.
    ///
    /// `environment` is of the configuration's own environment type, so `.production` names the
    /// app's case. `logger`, when given, hears every step of setup and registration (see
    /// ``ModuleFactoryLogger``). Nothing is set up or registered here.
    public init<Configuration: ModuleFactoryConfiguration>(
        environment: Configuration.Environment,
        configuration: Configuration,
        logger: (any ModuleFactoryLogger)? = nil
    ) {
        self.infrastructureFactory = Configuration.InfrastructureFactory()
        self.repositoryFactory = RepositoryModuleFactory()
        self.useCaseFactory = UseCaseModuleFactory()
        self.scopeFactory = ScopeModuleFactory()
        self.presentationFactory = Configuration.PresentationFactory()
        self.batchSize = 256
        self.validatesDeclaredDependencies = true
        self.logger = logger
        self.setup = Setup(environment: String(describing: environment)) { manager in
            // Both were made above as these types and only this type assigns them.
            guard var infrastructure = manager.infrastructureFactory as? Configuration.InfrastructureFactory,
                var presentation = manager.presentationFactory as? Configuration.PresentationFactory
            else { preconditionFailure("ModuleFactoryManager: a layer factory changed type") }
            await configuration.setUpFactories(
                infrastructure: &infrastructure,
                repository: &manager.repositoryFactory,
                useCase: &manager.useCaseFactory,
                scope: &manager.scopeFactory,
                presentation: &presentation,
                for: environment)
            manager.infrastructureFactory = infrastructure
            manager.presentationFactory = presentation
        }
    }

    /// Has the configuration given to ``init(environment:configuration:logger:)`` add every layer's
    /// definitions for the manager's environment (its
    /// ``ModuleFactoryConfiguration/setUpFactories(infrastructure:repository:useCase:scope:presentation:for:)``),
    /// into this manager's factories. Builds nothing: instances are built when resolved.
    ///
    /// Definitions are added to what the factories already hold, so calling it twice defines every
    /// module twice, which ``registerAll(to:)`` then refuses as a ``ModuleFactoryError/duplicateModule(_:first:second:)``.
    /// On a manager made with ``init(batchSize:validatesDeclaredDependencies:)`` there is no
    /// configuration to set up from: it changes nothing and logs a warning saying so.
    public mutating func setupAllFactories() async {
        guard let setup else {
            ObservationCenter.shared.logWarning(
                "setupAllFactories() on a ModuleFactoryManager made without an environment and configuration "
                    + "changes nothing: make it with init(environment:configuration:logger:), or set its factories up yourself."
            )
            return
        }
        log("🏭 Setting up module factories for \(setup.environment)")
        await setup.run(&self)
        let counts = orderedFactories.map { "\($0.name) \($0.factory.definitions.count)" }.joined(separator: ", ")
        log("✅ All factories configured for \(setup.environment) (definitions: \(counts))")
    }

    /// Adds an app factory in `layer` (after the factories already in that layer). `name` labels it
    /// in statistics and errors; it defaults to the factory's type name.
    public mutating func add(
        _ factory: some ModuleFactory & Sendable, layer: ModuleLayer = .custom, name: String? = nil
    ) {
        added.append(
            ManagedModuleFactory(
                name: name ?? String(describing: type(of: factory)), layer: layer, factory: factory))
    }

    /// Every factory in registration order: by layer, and within a layer the manager's own factory
    /// first, then added ones in the order they were added. The infrastructure and presentation
    /// factories are listed only for a manager made with a configuration.
    var orderedFactories: [ManagedModuleFactory] {
        var all: [ManagedModuleFactory] = []
        if setup != nil {
            all.append(
                ManagedModuleFactory(
                    name: String(describing: type(of: infrastructureFactory)), layer: .infrastructure,
                    factory: infrastructureFactory))
        }
        all += [
            ManagedModuleFactory(name: "RepositoryModuleFactory", layer: .repository, factory: repositoryFactory),
            ManagedModuleFactory(name: "UseCaseModuleFactory", layer: .useCase, factory: useCaseFactory),
            ManagedModuleFactory(name: "ScopeModuleFactory", layer: .scope, factory: scopeFactory),
        ]
        if setup != nil {
            all.append(
                ManagedModuleFactory(
                    name: String(describing: type(of: presentationFactory)), layer: .presentation,
                    factory: presentationFactory))
        }
        all += added
        return all.enumerated()
            .sorted { ($0.element.layer, $0.offset) < ($1.element.layer, $1.offset) }
            .map(\.element)
    }

    /// Makes every module of every factory, in registration order. Builds no instance.
    public func makeAllModules() -> [Module] {
        orderedFactories.flatMap { $0.factory.makeAllModules() }
    }

    /// Makes every module and checks the set without registering anything: there is at least one
    /// module, each is valid, no two register the same type under the same name, none is already
    /// registered in a `container` that rejects duplicates (``Container/DuplicatePolicy/reject``), and (when
    /// ``validatesDeclaredDependencies``) every declared dependency is provided by a module here or
    /// registered in `container`.
    public func validate(against container: Container = Container.shared) throws {
        try Self.validate(made(), against: container, checkingDependencies: validatesDeclaredDependencies)
    }

    /// Validates (see ``validate(against:)``) and then registers every module into `container`
    /// (``Container/shared`` by default, evaluated at the call): factory by factory in layer order,
    /// each factory's modules concurrently in batches of ``batchSize``. If validation fails, nothing
    /// is registered and the error is one of ``ModuleFactoryError``. Nothing is built: instances are
    /// built when resolved.
    ///
    /// Returns (and keeps, for ``getRegistrationStatistics()``) how many modules each factory
    /// registered, and how long it took.
    @discardableResult
    public mutating func registerAll(to container: Container = Container.shared) async throws
        -> ModuleRegistrationStatistics
    {
        guard batchSize >= 1 else {
            throw ModuleFactoryError.invalidConfiguration("batchSize must be at least 1, but is \(batchSize)")
        }
        log("📦 Starting module registration process")
        let start = monotonicSeconds()
        let made = made()
        let total = made.reduce(0) { $0 + $1.modules.count }
        log("📊 Found \(total) modules to register from \(made.count) factories")
        try Self.validate(made, against: container, checkingDependencies: validatesDeclaredDependencies)
        let validated = monotonicSeconds()
        log("✅ Module validation passed")

        var factories: [ModuleRegistrationStatistics.PerFactory] = []
        factories.reserveCapacity(made.count)
        for (entry, modules) in made {
            let factoryStart = monotonicSeconds()
            let batches = await Self.registerInBatches(
                modules, into: container, batchSize: batchSize, logger: logger, label: "\(entry.name) (\(entry.layer))")
            factories.append(
                ModuleRegistrationStatistics.PerFactory(
                    name: entry.name, layer: entry.layer, moduleCount: modules.count,
                    registrationDuration: monotonicSeconds() - factoryStart, batchCount: batches))
        }
        let statistics = ModuleRegistrationStatistics(
            factories: factories, validationDuration: validated - start, totalDuration: monotonicSeconds() - start)
        lastRegistration = statistics
        log("🎉 Module registration completed successfully: \(statistics)")
        return statistics
    }

    /// What the last successful ``registerAll(to:)`` on this value registered: modules per factory
    /// and per layer (``ModuleRegistrationStatistics/infrastructureModules`` ...), their total
    /// (``ModuleRegistrationStatistics/totalModules``) and durations. Before one, every factory is
    /// listed with 0 modules and ``ModuleRegistrationStatistics/isRegistered`` is `false`
    /// (``makeAllModules()`` tells what would be registered). A failed `registerAll` changes nothing.
    public func getRegistrationStatistics() -> ModuleRegistrationStatistics {
        if let lastRegistration { return lastRegistration }
        return ModuleRegistrationStatistics(
            factories: orderedFactories.map {
                ModuleRegistrationStatistics.PerFactory(
                    name: $0.name, layer: $0.layer, moduleCount: 0,
                    registrationDuration: nil, batchCount: 0)
            },
            validationDuration: nil, totalDuration: nil)
    }

    // MARK: Internals

    /// The environment (as messages spell it) and the configuration's setup, type-erased.
    struct Setup: Sendable {
        let environment: String
        let run: @Sendable (inout ModuleFactoryManager) async -> Void
    }

    /// Logs a step to the app's logger and WeaveDI's log.
    private func log(_ message: String) {
        logger?.info(message)
        ObservationCenter.shared.logInfo(message)
    }

    private func made() -> [(entry: ManagedModuleFactory, modules: [Module])] {
        orderedFactories.map { ($0, $0.factory.makeAllModules()) }
    }

    static func validate(
        _ made: [(entry: ManagedModuleFactory, modules: [Module])],
        against container: Container,
        checkingDependencies: Bool
    ) throws {
        guard made.contains(where: { !$0.modules.isEmpty }) else {
            throw ModuleFactoryError.noModulesFound
        }
        var provided: [RegistryKey: ModuleFactoryError.Origin] = [:]
        provided.reserveCapacity(made.reduce(0) { $0 + $1.modules.count })
        for (entry, modules) in made {
            for module in modules {
                let origin = ModuleFactoryError.Origin(factory: entry.name, site: module.site)
                if let reason = module.invalidityReason {
                    throw ModuleFactoryError.invalidModule(module.description, origin: origin, reason: reason)
                }
                if let first = provided.updateValue(origin, forKey: module.key) {
                    throw ModuleFactoryError.duplicateModule(
                        ResolutionFrame.displayName(module.type, module.name), first: first, second: origin)
                }
            }
        }
        // A container that rejects duplicates would refuse these, registering the rest: refuse now.
        if container.duplicatePolicy == .reject {
            for (entry, modules) in made {
                for module in modules {
                    if let existing = container.ownRegistrationSite(of: module.key) {
                        throw ModuleFactoryError.duplicateModule(
                            ResolutionFrame.displayName(module.type, module.name),
                            first: ModuleFactoryError.Origin(
                                factory: ModuleFactoryError.Origin.existingRegistration, site: existing),
                            second: ModuleFactoryError.Origin(factory: entry.name, site: module.site))
                    }
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
                            module: module.description, dependency: TypeNames.qualified(dependency),
                            origin: ModuleFactoryError.Origin(factory: entry.name, site: module.site))
                    }
                }
            }
        }
    }

    /// Registers `modules` in consecutive batches, each batch concurrently in a task group; returns
    /// the number of batches. `logger` hears each batch and each module.
    ///
    /// A batch is split into one contiguous run per processor rather than one task per module:
    /// registration is a short critical section in the registry, so a task per module would cost
    /// more to schedule than the registration itself.
    static func registerInBatches(
        _ modules: [Module], into container: Container, batchSize: Int,
        logger: (any ModuleFactoryLogger)? = nil, label: String = ""
    ) async -> Int {
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let batchTotal = (modules.count + batchSize - 1) / batchSize
        var batches = 0
        var index = modules.startIndex
        while index < modules.endIndex {
            let end = min(index + batchSize, modules.endIndex)
            let batch = modules[index..<end]
            let runLength = (batch.count + workers - 1) / workers
            logger?.info("📦 Registering \(label): batch \(batches + 1)/\(batchTotal)")
            await withTaskGroup(of: Void.self) { group in
                var runStart = batch.startIndex
                while runStart < batch.endIndex {
                    let run = batch[runStart..<min(runStart + runLength, batch.endIndex)]
                    group.addTask {
                        for module in run {
                            module.register(into: container)
                            logger?.debug("✅ Registered: \(module.description)")
                        }
                    }
                    runStart = run.endIndex
                }
            }
            batches += 1
            index = end
        }
        return batches
    }
}

/// The infrastructure and presentation factory of a manager made without a configuration: never
/// given definitions, never listed.
private struct UnconfiguredLayerFactory: LayerModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []
}

/// A factory held by ``ModuleFactoryManager`` with the name and layer it is registered under.
struct ManagedModuleFactory: Sendable {
    let name: String
    let layer: ModuleLayer
    let factory: any ModuleFactory & Sendable
}
