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
        case .databaseUnavailable(let path, let underlying):
            return "Could not open the database at \(path): \(underlying)"
        }
    }
}

/// The app's composition root: the one module that knows every other module.
///
/// Three steps, each with the tool made for it:
/// 1. the database, an async singleton (`registerAsync`): opening and migrating it is I/O, so it
///    is built on first `resolveAsync`, with retries, while the asking task is suspended;
/// 2. the core layers from module factories, registered by a ``ModuleFactoryManager`` built for
///    the environment, the repositories holding the database resolved in step 1;
/// 3. the features, configured by a ``FeatureModuleLoader`` in dependency order.
///
/// Everything goes into `Container.shared`: the process-wide container in the app, the test's own
/// container inside `Container.withShared` or the `.container` test trait.
public enum AppDI {
    /// The features, in no particular order: the loader orders them by their dependencies.
    public static let features: [any FeatureModule.Type] = [
        PaymentFeatureModule.self, OrderFeatureModule.self, UserFeatureModule.self,
    ]

    /// How many times ``openDatabase(_:)`` tries to open the database.
    public static let databaseAttempts = 3
    /// How long ``openDatabase(_:)`` waits between two tries.
    public static let databaseRetryDelay: Duration = .milliseconds(200)

    /// The module factories for `configuration`'s environment, in layer order; the SQLite
    /// repositories share `database`.
    public static func makeManager(for configuration: AppConfiguration, database: AppDatabase) -> ModuleFactoryManager {
        var manager = ModuleFactoryManager()
        var infrastructure = InfrastructureModuleFactory()
        infrastructure.setup(for: configuration)
        manager.add(infrastructure, layer: .infrastructure)
        manager.repositoryFactory.setupSQLite(database: database)
        return manager
    }

    /// Opens and migrates the environment's database: a temporary file under `.testing`, the
    /// configured path otherwise. A failed attempt is retried (``databaseAttempts`` in all,
    /// ``databaseRetryDelay`` apart); cancelling the calling task stops the retries with
    /// `CancellationError`.
    public static func openDatabase(_ configuration: AppConfiguration) async throws -> AppDatabase {
        var attempt = 1
        while true {
            do {
                return configuration.environment == .testing
                    ? try await AppDatabase.temporary()
                    : try await AppDatabase.open(at: configuration.databasePath)
            } catch {
                guard attempt < databaseAttempts, !(error is CancellationError) else { throw error }
                attempt += 1
                try await Task.sleep(for: databaseRetryDelay)
            }
        }
    }

    /// Registers the database into `container` as an async singleton built by `open` (by default
    /// ``openDatabase(_:)``), which runs once however many tasks resolve it at the same time:
    /// they all wait for that one build and get the same ``AppDatabase``. It is async-only:
    /// resolve it with `try await container.resolveAsync(AppDatabase.self)`.
    @discardableResult
    public static func registerDatabase(
        _ configuration: AppConfiguration,
        into container: Container,
        open: @escaping @Sendable (AppConfiguration) async throws -> AppDatabase = AppDI.openDatabase
    ) -> RegistrationHandle {
        container.registerAsync(AppDatabase.self, scope: .singleton) {
            try await open(configuration)
        }
    }

    /// Opens the database and registers every module and feature into `Container.shared`.
    public static func bootstrap(_ configuration: AppConfiguration) async throws -> BootstrapSummary {
        let container = Container.shared

        // 1. The database, built by the first (here, the only) task that asks for it.
        registerDatabase(configuration, into: container)
        let database: AppDatabase
        do {
            database = try await container.resolveAsync(AppDatabase.self)
        } catch {
            throw BootstrapError.databaseUnavailable(path: configuration.databasePath, underlying: error)
        }
        return try await bootstrap(configuration, database: database)
    }

    /// Registers every module and feature into `Container.shared` around a database the caller
    /// has opened (steps 2 and 3 of ``bootstrap(_:)``); `database` is registered as a singleton
    /// instance first if `Container.shared` has no registration of it. The HTTP server opens its
    /// database itself.
    public static func bootstrap(_ configuration: AppConfiguration, database: AppDatabase) async throws
        -> BootstrapSummary
    {
        let container = Container.shared
        if !container.isRegistered(AppDatabase.self) {
            container.register(AppDatabase.self, instance: database)
        }

        // 2. Infrastructure and repositories.
        var manager = makeManager(for: configuration, database: database)
        let modules = try await manager.registerAll(to: container)

        // 3. Features, dependencies first.
        let loader = try FeatureModuleLoader(features)
        try await loader.loadAll()

        return BootstrapSummary(
            environment: configuration.environment, databasePath: database.path,
            migrations: try database.appliedMigrations(), modules: modules, features: await loader.loadedModules)
    }
}
