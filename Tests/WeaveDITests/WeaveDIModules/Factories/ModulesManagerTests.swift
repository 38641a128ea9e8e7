import Foundation
import Testing

@testable import WeaveDI
@testable import WeaveDIModules

private protocol DatabaseService {}
private struct InMemoryDatabase: DatabaseService {}
private protocol NetworkService {}
private struct HTTPNetworkService: NetworkService {}
private protocol UserRepository {}
private struct UserRepositoryImpl: UserRepository { let database: DatabaseService }
private protocol OrderRepository {}
private struct OrderRepositoryImpl: OrderRepository {}
private protocol UserProfileUseCase {}
private struct UserProfileUseCaseImpl: UserProfileUseCase { let repository: UserRepository }
private struct DefaultUserRepository: UserRepository {}
private final class SessionStore: Sendable {}
private protocol ProfileViewModel {}
private struct ProfileViewModelImpl: ProfileViewModel { let useCase: UserProfileUseCase }

// Ten marker types and a generic of four: `Quad<…>` gives 10 000 distinct registered types without
// 10 000 declarations (the realistic scale case: modules for distinct types).
private struct D0 {}
private struct D1 {}
private struct D2 {}
private struct D3 {}
private struct D4 {}
private struct D5 {}
private struct D6 {}
private struct D7 {}
private struct D8 {}
private struct D9 {}
private protocol Indexed { var index: Int { get } }
private struct Quad<A, B, C, D>: Indexed { let index: Int }
private let digitTypes: [Any.Type] = [
    D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self, D8.self, D9.self,
]

/// A module for a type unique to `index` (0..<10 000).
private func distinctModule(_ index: Int) -> Module {
    let a = digitTypes[index / 1000 % 10]
    let b = digitTypes[index / 100 % 10]
    let c = digitTypes[index / 10 % 10]
    let d = digitTypes[index % 10]
    func openA<A>(_: A.Type) -> Module {
        func openB<B>(_: B.Type) -> Module {
            func openC<C>(_: C.Type) -> Module {
                func openD<D>(_: D.Type) -> Module { Module(Quad<A, B, C, D>.self) { Quad<A, B, C, D>(index: index) } }
                return openD(d)
            }
            return openC(c)
        }
        return openB(b)
    }
    return openA(a)
}

/// What the module for `module.type` resolves to, through the type-erased resolve.
private func resolvedIndex(_ module: Module, in container: Container) -> Int? {
    (container.resolve(module.type) as? Indexed)?.index
}

/// App factories the Module Factory guide's manager holds as fields (infrastructure, presentation).
private struct InfrastructureModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append { registerModule.makeModule(DatabaseService.self, scope: .singleton) { InMemoryDatabase() } }
        definitions.append { registerModule.makeModule(NetworkService.self) { HTTPNetworkService() } }
    }
}

private struct PresentationModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    mutating func setup() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(ProfileViewModel.self, dependencies: [UserProfileUseCase.self]) {
                ProfileViewModelImpl(useCase: try WeaveDI.Container.shared.resolveOrThrow(UserProfileUseCase.self))
            }
        }
    }
}

/// A factory holding whatever modules a test hands it.
private struct ListModuleFactory: ModuleFactory {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    init(_ modules: [Module]) {
        definitions = modules.map { module in { module } }
    }
}

/// The app's setup of the built-in factories by hand, on a manager made without a configuration.
extension ModuleFactoryManager {
    fileprivate mutating func setupAllFactoriesByHand() {
        var infrastructure = InfrastructureModuleFactory()
        infrastructure.setup()
        add(infrastructure, layer: .infrastructure)

        let repositories = repositoryFactory.registerModule
        repositoryFactory.definitions.append {
            repositories.makeModule(UserRepository.self) {
                UserRepositoryImpl(database: WeaveDI.Container.shared.resolve(DatabaseService.self)!)
            }
        }
        repositoryFactory.definitions.append { repositories.makeModule(OrderRepository.self) { OrderRepositoryImpl() } }

        useCaseFactory.definitions.append(
            useCaseFactory.registerModule.makeUseCaseWithRepository(
                UserProfileUseCase.self,
                repositoryProtocol: UserRepository.self,
                repositoryFallback: DefaultUserRepository(),
                factory: { UserProfileUseCaseImpl(repository: $0) }))

        let scoped = scopeFactory.registerModule
        scopeFactory.definitions.append { scoped.makeModule(SessionStore.self) { SessionStore() } }

        var presentation = PresentationModuleFactory()
        presentation.setup()
        add(presentation, layer: .presentation)
    }
}

@Suite("Modules: ModuleFactoryManager")
struct ModulesManagerTests {
    @Test("the Module Factory guide's flow: set up, registerAll, resolve through every layer, statistics")
    func seedFlow() async throws {
        var manager = ModuleFactoryManager()
        manager.setupAllFactoriesByHand()
        let before = manager.getRegistrationStatistics()
        #expect(manager.makeAllModules().count == 7)
        #expect(before.totalModules == 0, "nothing registered yet")
        #expect(!before.isRegistered)
        #expect(before.factories.allSatisfy { $0.registrationDuration == nil && $0.moduleCount == 0 })

        let container = Container()
        try await Container.withShared(container) {
            try await manager.registerAll()
            #expect(WeaveDI.Container.shared.resolve(ProfileViewModel.self) is ProfileViewModelImpl)
            let profile = container.resolve(UserProfileUseCase.self) as? UserProfileUseCaseImpl
            #expect(profile?.repository is UserRepositoryImpl)
        }
        #expect(container.isRegistered(SessionStore.self))
        #expect(container.registrations.first { $0.type == SessionStore.self }?.scope == .request)

        let stats = manager.getRegistrationStatistics()
        #expect(stats.isRegistered)
        #expect(stats.totalModules == 7)
        #expect(stats.infrastructureModules == 2)
        #expect(stats.repositoryModules == 2)
        #expect(stats.useCaseModules == 1)
        #expect(stats.scopeModules == 1)
        #expect(stats.presentationModules == 1)
        #expect(
            stats.factories.map(\.name) == [
                "InfrastructureModuleFactory", "RepositoryModuleFactory", "UseCaseModuleFactory",
                "ScopeModuleFactory", "PresentationModuleFactory",
            ])
        #expect(stats.factories.allSatisfy { ($0.registrationDuration ?? -1) >= 0 })
        #expect(stats.factory(named: "RepositoryModuleFactory")?.batchCount == 1)
        #expect((stats.totalDuration ?? -1) >= (stats.validationDuration ?? .infinity))
    }

    @Test("factories register in layer order: infrastructure, repository, use case, scope, presentation, custom")
    func layerOrder() async throws {
        var manager = ModuleFactoryManager()
        manager.add(ListModuleFactory([Module(Int.self, name: "custom") { 0 }]), layer: .custom, name: "Custom")
        manager.add(ListModuleFactory([Module(Int.self, name: "presentation") { 0 }]), layer: .presentation)
        manager.scopeFactory.definitions.append { Module(Int.self, name: "scope") { 0 } }
        manager.useCaseFactory.definitions.append { Module(Int.self, name: "useCase") { 0 } }
        manager.add(ListModuleFactory([Module(Int.self, name: "service") { 0 }]), layer: .service)
        manager.repositoryFactory.definitions.append { Module(Int.self, name: "repository") { 0 } }
        manager.add(ListModuleFactory([Module(Int.self, name: "infrastructure") { 0 }]), layer: .infrastructure)
        manager.add(ListModuleFactory([Module(Int.self, name: "repository2") { 0 }]), layer: .repository)

        let expected = [
            "infrastructure", "repository", "repository2", "useCase", "service", "scope", "presentation", "custom",
        ]
        #expect(manager.makeAllModules().compactMap(\.name) == expected)
        let container = Container()
        try await manager.registerAll(to: container)
        #expect(container.registrations.compactMap(\.name) == expected)
    }

    @Test("two modules for the same type and name are a duplicateModule naming the type and both factories")
    func duplicateDetection() async throws {
        var manager = ModuleFactoryManager()
        manager.repositoryFactory.definitions.append { Module(UserRepository.self) { DefaultUserRepository() } }
        let line = #line + 1
        let second = Module(UserRepository.self) { UserRepositoryImpl(database: InMemoryDatabase()) }
        manager.add(ListModuleFactory([second]), layer: .presentation, name: "TestOverrides")
        let container = Container()
        do {
            try await manager.registerAll(to: container)
            Issue.record("expected a duplicate error")
        } catch let error as ModuleFactoryError {
            guard case .duplicateModule(let type, let first, let other) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(type.contains("UserRepository"))
            #expect(first.factory == "RepositoryModuleFactory")
            #expect(other.factory == "TestOverrides")
            #expect(other.site.line == line)
            let message = error.localizedDescription
            #expect(message.contains("UserRepository"))
            #expect(message.contains("RepositoryModuleFactory"))
            #expect(message.contains("TestOverrides"))
        }
        #expect(container.registrations.isEmpty, "validation runs before anything is registered")
    }

    @Test("the same type under different names is not a duplicate")
    func sameTypeDifferentNames() async throws {
        var manager = ModuleFactoryManager()
        manager.repositoryFactory.definitions.append { Module(UserRepository.self) { DefaultUserRepository() } }
        manager.repositoryFactory.definitions.append {
            Module(UserRepository.self, name: "remote") { DefaultUserRepository() }
        }
        let container = Container()
        try await manager.registerAll(to: container)
        #expect(container.isRegistered(UserRepository.self))
        #expect(container.isRegistered(UserRepository.self, name: "remote"))
    }

    @Test("no modules at all is noModulesFound")
    func noModules() async {
        var manager = ModuleFactoryManager()
        await #expect(throws: ModuleFactoryError.self) { try await manager.registerAll(to: Container()) }
        do {
            try manager.validate(against: Container())
        } catch let error as ModuleFactoryError {
            guard case .noModulesFound = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.localizedDescription.contains("No modules"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("an invalid module is reported with its type and factory")
    func invalidModule() async {
        var manager = ModuleFactoryManager()
        manager.useCaseFactory.definitions.append {
            Module(UserProfileUseCase.self, name: "") { UserProfileUseCaseImpl(repository: DefaultUserRepository()) }
        }
        let container = Container()
        do {
            try await manager.registerAll(to: container)
            Issue.record("expected an invalid-module error")
        } catch let error as ModuleFactoryError {
            guard case .invalidModule(let module, let origin, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(module.contains("UserProfileUseCase"))
            #expect(origin.factory == "UseCaseModuleFactory")
            #expect(error.localizedDescription.contains("name is empty"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(container.registrations.isEmpty)
    }

    @Test("declared dependencies must be provided by a module or the container")
    func declaredDependencies() async throws {
        var presentationOnly = ModuleFactoryManager()
        var presentation = PresentationModuleFactory()
        presentation.setup()
        presentationOnly.add(presentation, layer: .presentation)

        // Nothing provides UserProfileUseCase.
        do {
            try await presentationOnly.registerAll(to: Container())
            Issue.record("expected a missing-dependency error")
        } catch let ModuleFactoryError.missingDependency(module, dependency, origin) {
            #expect(module.contains("ProfileViewModel"))
            #expect(dependency.contains("UserProfileUseCase"))
            #expect(origin.factory == "PresentationModuleFactory")
        }

        // Registered in the target container beforehand: fine.
        let container = Container()
        container.register(UserProfileUseCase.self) { UserProfileUseCaseImpl(repository: DefaultUserRepository()) }
        try await presentationOnly.registerAll(to: container)

        // Provided by another module in the manager: fine (the full setup proves it).
        var full = ModuleFactoryManager()
        full.setupAllFactoriesByHand()
        try full.validate(against: Container())

        // Turned off for dependencies registered later.
        var lenient = presentationOnly
        lenient.validatesDeclaredDependencies = false
        try await lenient.registerAll(to: Container())
    }

    @Test("registers many modules concurrently in batches; all resolvable, batch count reported")
    func concurrentBatches() async throws {
        var manager = ModuleFactoryManager(batchSize: 7)
        let count = 1_000
        let made = (0..<count).map(distinctModule)
        for module in made { manager.repositoryFactory.definitions.append { module } }
        // Named registrations of one type go through the same batches.
        for index in 0..<50 {
            manager.useCaseFactory.definitions.append { Module(Int.self, name: "n\(index)") { index } }
        }
        let container = Container()
        let stats = try await manager.registerAll(to: container)
        #expect(stats.totalModules == count + 50)
        #expect(stats.factory(named: "RepositoryModuleFactory")?.batchCount == (count + 6) / 7)
        #expect(stats.factory(named: "UseCaseModuleFactory")?.batchCount == 8)
        #expect(container.registrations.count == count + 50)
        for (index, module) in made.enumerated() {
            #expect(resolvedIndex(module, in: container) == index)
        }
        for index in 0..<50 { #expect(container.resolve("n\(index)", Int.self) == index) }
    }

    @Test("10 000 modules make and register (scale; timing is measured by a release build, not asserted)")
    func tenThousandModules() async throws {
        var manager = ModuleFactoryManager()
        let made = (0..<10_000).map(distinctModule)
        for module in made { manager.repositoryFactory.definitions.append { module } }
        let container = Container()
        let stats = try await manager.registerAll(to: container)
        #expect(stats.totalModules == 10_000)
        #expect(container.registrations.count == 10_000)
        #expect(resolvedIndex(made[9_999], in: container) == 9_999)
        #expect(resolvedIndex(made[0], in: container) == 0)
    }

    @Test("a batch size below one is an invalid configuration")
    func invalidBatchSize() async {
        var manager = ModuleFactoryManager(batchSize: 0)
        manager.repositoryFactory.definitions.append { Module(Int.self) { 1 } }
        do {
            try await manager.registerAll(to: Container())
            Issue.record("expected invalidConfiguration")
        } catch let error as ModuleFactoryError {
            guard case .invalidConfiguration = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.localizedDescription.contains("batchSize"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("registerAll() without a container registers into Container.shared (as bound)")
    func defaultsToShared() async throws {
        var manager = ModuleFactoryManager()
        manager.repositoryFactory.definitions.append { Module(OrderRepository.self) { OrderRepositoryImpl() } }
        let container = Container()
        try await Container.withShared(container) {
            _ = try await manager.registerAll()
        }
        #expect(container.resolve(OrderRepository.self) != nil)
    }

    @Test("errors are LocalizedError with messages that say what to do")
    func errorMessages() {
        let origin = ModuleFactoryError.Origin(factory: "F", site: RegistrationSite(fileID: "App/F.swift", line: 3))
        let errors: [ModuleFactoryError] = [
            .noModulesFound,
            .duplicateModule("App.X", first: origin, second: origin),
            .invalidModule("Module(App.X)", origin: origin, reason: "why"),
            .missingDependency(module: "Module(App.X)", dependency: "App.Y", origin: origin),
            .invalidConfiguration("detail"),
        ]
        for error in errors {
            let message = (error as LocalizedError).errorDescription ?? ""
            #expect(!message.isEmpty)
            #expect(message == error.description)
        }
        #expect(errors[1].description.contains("App/F.swift:3"))
    }
}
