import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

// Call shapes copied from the seeds (with only the fixes a user must make to invalid Swift),
// so a change that breaks seed code breaks this build.

// The Advanced Patterns guide: generic repository registered under a parameterized protocol.
struct SeedUser: Codable { let id: String }
protocol SeedRepository<Entity> {
    associatedtype Entity: Codable
    func fetchAll() async throws -> [Entity]
}
final class CoreDataRepository<T: Codable>: SeedRepository {
    typealias Entity = T
    func fetchAll() async throws -> [T] { [] }
}

// The Advanced Patterns guide: decorator chain.
protocol SeedOrderService: Sendable { func process() -> String }
final class BasicOrderService: SeedOrderService { func process() -> String { "basic" } }
final class LoggingOrderService: SeedOrderService {
    let decorated: SeedOrderService
    init(decorated: SeedOrderService) { self.decorated = decorated }
    func process() -> String { "logged(\(decorated.process()))" }
}

// The Practical Usage guide: the app's own scope enum and a UnifiedDI extension built on `register(_:factory:)`.
enum DependencyScope { case request, session, instance }
extension UnifiedDI {
    static func registerScoped<T: Sendable>(
        _ type: T.Type,
        scope: DependencyScope,
        factory: @escaping @Sendable () -> T
    ) {
        switch scope {
        case .request:
            register(type, factory: factory)
        case .session, .instance:
            let instance = factory()
            register(type) { instance }
        }
    }
}

// The Practical Usage guide's setup extensions and factory pattern, written with the `DI` name of
// the facade ("Choose either UnifiedDI or DI and use consistently").
protocol SeedServiceFactory: Sendable {
    func createNetworkService() -> any SeedNetworkService
}
protocol SeedNetworkService: Sendable { var kind: String { get } }
struct SeedHTTPNetworkService: SeedNetworkService { let kind = "http" }
struct SeedMockNetworkService: SeedNetworkService { let kind = "mock" }
struct SeedProductionServiceFactory: SeedServiceFactory {
    func createNetworkService() -> any SeedNetworkService { SeedHTTPNetworkService() }
}
struct SeedDevelopmentServiceFactory: SeedServiceFactory {
    func createNetworkService() -> any SeedNetworkService { SeedMockNetworkService() }
}
enum AppDependencySetup {
    static func configure(isProduction: Bool) {
        let factory: SeedServiceFactory =
            isProduction ? SeedProductionServiceFactory() : SeedDevelopmentServiceFactory()
        DI.registerMany {
            Registration(SeedServiceFactory.self) { factory }
            Registration(SeedNetworkService.self) { factory.createNetworkService() }
        }
    }
}
final class SeedStateMonitor: Sendable {}
final class SeedObservableService: Sendable {
    let observer: SeedStateMonitor
    init(observer: SeedStateMonitor) { self.observer = observer }
}
extension DI {
    static func setupObservableServices() {
        let stateMonitor = SeedStateMonitor()
        registerMany {
            Registration(SeedStateMonitor.self) { stateMonitor }
            Registration(SeedObservableService.self) { SeedObservableService(observer: stateMonitor) }
        }
    }
}
final class SeedExpensiveService: Sendable {}

// The Module Factory guide: critical services checked through `[Any.Type]`.
enum InitializationError: LocalizedError {
    case criticalServiceMissing(String)
}

@Suite("Seed shapes", .capturesLog)
struct SeedShapesTests {
    @Test func genericRepositoryAndDecoratorChain() async throws {
        let container = Container()
        try await Container.withShared(container) {
            await WeaveDI.Container.bootstrap { container in
                container.register((any SeedRepository<SeedUser>).self) {
                    CoreDataRepository<SeedUser>()
                }
                container.register("BasicOrderService", SeedOrderService.self) {
                    BasicOrderService()
                }
                container.register(SeedOrderService.self) {
                    let basicService = container.resolve("BasicOrderService", SeedOrderService.self)!
                    return LoggingOrderService(decorated: basicService)
                }
            }
            let repository = UnifiedDI.resolve((any SeedRepository<SeedUser>).self)
            let all = try await repository?.fetchAll()
            #expect(all?.isEmpty == true)
            #expect(UnifiedDI.resolve(SeedOrderService.self)?.process() == "logged(basic)")
        }
    }

    @Test func registerScopedFromSeed004() {
        Container.withShared(Container()) {
            UnifiedDI.registerScoped(UUID.self, scope: .request) { UUID() }
            #expect(UnifiedDI.resolve(UUID.self) != UnifiedDI.resolve(UUID.self))
            UnifiedDI.registerScoped(UUID.self, scope: .session) { UUID() }
            #expect(UnifiedDI.resolve(UUID.self) == UnifiedDI.resolve(UUID.self))
        }
    }

    @Test func diFacadeShapesFromSeed004() async {
        await Container.withShared(Container()) {
            await DI.releaseAll()
            AppDependencySetup.configure(isProduction: false)
            #expect(DI.resolve(SeedNetworkService.self)?.kind == "mock")
            DI.setupObservableServices()
            let service: SeedObservableService = DI.requireResolve(SeedObservableService.self)
            // Same storage: the monitor DI registered is the one UnifiedDI resolves.
            #expect(service.observer === UnifiedDI.resolve(SeedStateMonitor.self))
            DI.register(SeedExpensiveService.self) {
                // Defer creation until actually resolved
                SeedExpensiveService()
            }
            #expect(DI.resolveWithTracking(SeedExpensiveService.self) != nil)
            // The guide's `registerScoped` extension of UnifiedDI, called through DI.
            DI.registerScoped(UUID.self, scope: .request) { UUID() }
            #expect(DI.resolve(UUID.self) != UnifiedDI.resolve(UUID.self))
            await UnifiedDI.releaseAll()
            #expect(DI.resolve(SeedNetworkService.self) == nil)
        }
    }

    @Test func verifyCriticalDependenciesFromSeed000() async throws {
        let container = Container()
        container.register(UserStore.self) { StubUserRepository() }
        container.register(DataStore.self) { InMemoryDataStore() }
        try Container.withShared(container) {
            let criticalServices: [Any.Type] = [DataStore.self, UserStore.self]
            for serviceType in criticalServices {
                let resolved = WeaveDI.Container.shared.resolve(serviceType)
                guard resolved != nil else {
                    throw InitializationError.criticalServiceMissing(String(describing: serviceType))
                }
            }
        }
    }

    @Test func seedModuleRegistrationLoop() async {
        let modules = [
            Module(UserStore.self) { StubUserRepository() },
            Module(DataStore.self) { InMemoryDataStore() },
        ]
        await Container.withShared(Container()) {
            await WeaveDI.Container.bootstrap { container in
                await withTaskGroup(of: Void.self) { group in
                    for module in modules {
                        group.addTask { await container.register(module) }
                    }
                }
            }
            #expect(UnifiedDI.resolve(UserStore.self) != nil)
            #expect(UnifiedDI.resolve(DataStore.self) != nil)
        }
    }

    @Test func dependencyNotFoundAsTheSeedThrowsIt() {
        let error: Error = DIError.dependencyNotFound(UserStore.self)
        #expect(error.localizedDescription.contains("UserStore"))
    }

    @Test func monitoringHooksFromSeed001() {
        let tokens = [
            UnifiedDI.onSlowResolution { serviceName, duration in
                if duration > 0.01 { print("⚠️ Slow DI resolution: \(serviceName) took \(duration * 1000)ms") }
            },
            UnifiedDI.onMemoryPressure { print("💾 DI Container under memory pressure") },
            UnifiedDI.onResolutionError { serviceName, error in
                print("❌ DI Resolution failed: \(serviceName) - \(error)")
            },
        ]
        for token in tokens { token.cancel() }
        // `UnifiedRegistry.shared.enableOptimization()` (the Advanced Patterns guide) is exercised in a child process
        // by RegistrationTests: the switch is process-wide.
    }
}
