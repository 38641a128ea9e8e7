import Database
import SharedModels
import WeaveDI

/// Infrastructure every feature builds on: the configuration and the event bus, chosen per
/// environment. (The database is an async singleton: opening and migrating it is I/O, see
/// ``AppDI``.)
public struct InfrastructureModuleFactory: ModuleFactory, Sendable {
    public var registerModule = RegisterModule()
    public var definitions: [@Sendable () -> Module] = []

    public init() {}

    public mutating func setup(for configuration: AppConfiguration) {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule(AppConfiguration.self, scope: .singleton) { configuration }
        }
        switch configuration.environment {
        case .development, .testing:
            // A journal of every event, for the developer's summary and for tests' assertions: the
            // bus is decorated with it.
            definitions.append {
                registerModule.makeModule(EventJournal.self, scope: .singleton) { EventJournal() }
            }
            definitions.append {
                registerModule.makeDependency(EventBus.self, dependencies: [EventJournal.self], scope: .singleton) {
                    JournalingEventBus(
                        base: InProcessEventBus(), journal: try UnifiedDI.resolveOrThrow(EventJournal.self))
                }
            }
        case .production:
            // One bus per container: every feature must see the same subscribers.
            definitions.append {
                registerModule.makeModule(EventBus.self, scope: .singleton) { InProcessEventBus() }
            }
        }
    }
}

extension RepositoryModuleFactory {
    /// The SQLite repositories, sharing `database`: the container's ``AppDatabase``, which is
    /// async-only (opening it is I/O), so the composition root resolves it with `resolveAsync`
    /// first and hands it over. The modules still declare the dependency, so the graph shows it.
    public mutating func setupSQLite(database: AppDatabase) {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(UserRepository.self, dependencies: [AppDatabase.self], scope: .singleton) {
                SQLiteUserRepository(database: database)
            }
        }
        definitions.append {
            registerModule.makeDependency(OrderRepository.self, dependencies: [AppDatabase.self], scope: .singleton) {
                SQLiteOrderRepository(database: database)
            }
        }
        definitions.append {
            registerModule.makeDependency(PaymentRepository.self, dependencies: [AppDatabase.self], scope: .singleton) {
                SQLitePaymentRepository(database: database)
            }
        }
    }
}
