import Database
import Foundation
import OrderFeature
import PaymentFeature
import SharedModels
import UserFeature
import WeaveDI

/// What ``AppDI/bootstrap(_:)`` set up.
public struct BootstrapSummary: Sendable {
    public let environment: AppEnvironment
    /// The database file in use.
    public let databasePath: String
    /// The migrations that file has seen.
    public let migrations: [String]
    /// Modules per factory, and how long registering them took.
    public let modules: ModuleRegistrationStatistics
    /// The features, in the order the loader configured them.
    public let features: [String]
}

/// Why the app could not start.
public enum BootstrapError: Error, CustomStringConvertible {
    /// The database could not be opened (after the retries).
    case databaseUnavailable(path: String, underlying: any Error)

    public var description: String {
        switch self {
        case let .databaseUnavailable(path, underlying): return "Could not open the database at \(path): \(underlying)"
        }
    }
}

/// The app's composition root: the one module that knows every other module.
///
/// Three steps, each with the tool made for it:
/// 1. the database, an async module (opening and migrating is I/O), with a timeout and retries;
/// 2. the core layers from module factories, registered by a ``ModuleFactoryManager`` built for
///    the environment;
/// 3. the features, configured by a ``FeatureModuleLoader`` in dependency order.
///
/// Everything goes into `Container.shared`: the process-wide container in the app, the test's own
/// container inside `Container.withShared` or the `.container` test trait.
public enum AppDI {
    /// The features, in no particular order: the loader orders them by their dependencies.
    public static let features: [any FeatureModule.Type] = [
        PaymentFeatureModule.self, OrderFeatureModule.self, UserFeatureModule.self,
    ]

    /// The module factories for `configuration`'s environment, in layer order.
    public static func makeManager(for configuration: AppConfiguration) -> ModuleFactoryManager {
        var manager = ModuleFactoryManager()
        var infrastructure = InfrastructureModuleFactory()
        infrastructure.setup(for: configuration)
        manager.add(infrastructure, layer: .infrastructure)
        manager.repositoryFactory.setupSQLite()
        return manager
    }

    /// Opens the database and registers every module and feature into `Container.shared`.
    public static func bootstrap(_ configuration: AppConfiguration) async throws -> BootstrapSummary {
        let container = Container.shared

        // 1. The database.
        var asyncModules = AsyncModuleGroup()
        let path = configuration.databasePath
        let environment = configuration.environment
        asyncModules.addValue(AppDatabase.self, timeout: 10, maxAttempts: 3, retryDelay: 0.2) {
            environment == .testing ? try AppDatabase.temporary() : try AppDatabase.open(at: path)
        }
        let report = await asyncModules.registerAll(into: container)
        if let failure = report.failures.first {
            throw BootstrapError.databaseUnavailable(path: path, underlying: failure.error)
        }
        return try await bootstrap(configuration, database: try container.resolveOrThrow(AppDatabase.self))
    }

    /// Registers every module and feature into `Container.shared` around a database the caller
    /// has opened (steps 2 and 3 of ``bootstrap(_:)``); `database` is registered as a singleton
    /// instance first if `Container.shared` has none. The HTTP server opens its database itself.
    public static func bootstrap(_ configuration: AppConfiguration, database: AppDatabase) async throws -> BootstrapSummary {
        let container = Container.shared
        let environment = configuration.environment
        if !container.isRegistered(AppDatabase.self) {
            container.register(AppDatabase.self, instance: database)
        }

        // 2. Infrastructure and repositories.
        var manager = makeManager(for: configuration)
        let modules = try await manager.registerAll(to: container)

        // 3. Features, dependencies first.
        let loader = try FeatureModuleLoader(features)
        try await loader.loadAll()

        return BootstrapSummary(
            environment: environment, databasePath: database.path, migrations: try database.appliedMigrations(),
            modules: modules, features: await loader.loadedModules)
    }
}
