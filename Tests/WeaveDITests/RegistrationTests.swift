import Testing
import WeaveDI

@Suite("Registration and resolution")
struct RegistrationTests {
    @Test func resolvesWhatWasRegistered() {
        let container = Container()
        container.register(UserRepository.self) { UserRepositoryImpl() }
        let repository = container.resolve(UserRepository.self)
        #expect(repository != nil)
    }

    @Test func genericResolveKeepsItsStaticType() {
        let container = Container()
        container.register(UserRepository.self) { UserRepositoryImpl() }
        // Compiles only if the generic overload wins over `resolve(_: Any.Type) -> Any?`.
        let repository: (any UserRepository)? = container.resolve(UserRepository.self)
        #expect(repository != nil)
        let viaFacade: (any UserRepository)? = UnifiedDI.resolve(UserRepository.self)
        _ = viaFacade
    }

    @Test func anyTypeResolveServesRuntimeTypeLists() {
        let container = Container()
        container.register(UserRepository.self) { UserRepositoryImpl() }
        container.register(DatabaseService.self) { InMemoryDatabase() }
        let critical: [Any.Type] = [UserRepository.self, DatabaseService.self]
        for type in critical {
            #expect(container.resolve(type) != nil)
        }
        let missing: Any.Type = Counter.self
        #expect(container.resolve(missing) == nil)
    }

    @Test func unregisteredTypeResolvesToNil() {
        let container = Container()
        #expect(container.resolve(UserRepository.self) == nil)
    }

    @Test func namedRegistrationsAreSeparateFromUnnamed() {
        let container = Container()
        container.register("primary", DatabaseService.self) { InMemoryDatabase() }
        #expect(container.resolve("primary", DatabaseService.self) != nil)
        #expect(container.resolve(DatabaseService.self) == nil)
        #expect(container.resolve("other", DatabaseService.self) == nil)
    }

    @Test func registeringAgainReplacesTheEarlierRegistration() {
        let container = Container()
        container.register(String.self, scope: .singleton) { "first" }
        #expect(container.resolve(String.self) == "first")
        container.register(String.self, scope: .singleton) { "second" }
        #expect(container.resolve(String.self) == "second")
    }

    @Test func replacingAfterEnableOptimizationLeavesNoStaleCache() {
        UnifiedRegistry.shared.enableOptimization()
        defer { UnifiedRegistry.shared.disableOptimization() }
        let container = Container()
        container.register(String.self, scope: .singleton) { "first" }
        #expect(container.resolve(String.self) == "first")
        container.register(String.self) { "second" }
        #expect(container.resolve(String.self) == "second")
    }

    @Test func instanceRegistrationReturnsThatInstance() {
        let container = Container()
        let repository = UserRepositoryImpl()
        container.register(UserRepository.self, instance: repository)
        #expect(container.resolve(UserRepository.self) === repository)
    }

    @Test func registrationIsLazyAndOrderDoesNotMatter() {
        let container = Container()
        let built = Counter()
        container.register(UserRepository.self) {
            built.increment()
            _ = container.resolve(DatabaseService.self)
            return UserRepositoryImpl()
        }
        #expect(built.value == 0)
        // The dependency is registered after its dependent: fine, it is looked up on resolution.
        container.register(DatabaseService.self) { InMemoryDatabase() }
        #expect(container.resolve(UserRepository.self) != nil)
        #expect(built.value == 1)
    }

    @Test func factoryMayRegisterWhileItRuns() {
        let container = Container()
        container.register(UserRepository.self) {
            container.register(DatabaseService.self) { InMemoryDatabase() }
            return UserRepositoryImpl()
        }
        #expect(container.resolve(UserRepository.self) != nil)
        #expect(container.resolve(DatabaseService.self) != nil)
    }

    @Test func unregisterRemovesOnlyTheCurrentRegistration() {
        let container = Container()
        let first = container.register(String.self) { "first" }
        container.register(String.self) { "second" }
        #expect(first.unregister() == false)
        #expect(container.resolve(String.self) == "second")
        #expect(container.unregister(String.self))
        #expect(container.resolve(String.self) == nil)
    }

    @Test func moduleRegistrationBuildsNothingUntilResolved() async {
        let container = Container()
        let built = Counter()
        let module = Module(UserRepository.self) {
            built.increment()
            return UserRepositoryImpl()
        }
        await container.register(module)
        #expect(built.value == 0)
        #expect(container.resolve(UserRepository.self) != nil)
        #expect(built.value == 1)
        #expect(module.description.contains("UserRepository"))
    }

    @Test func registrationsListsWhatIsRegisteredWithWhere() {
        let container = Container()
        container.register(UserRepository.self, scope: .singleton) { UserRepositoryImpl() }
        container.register("db", DatabaseService.self) { InMemoryDatabase() }
        let listed = container.registrations
        #expect(listed.count == 2)
        #expect(listed[0].displayName.contains("UserRepository"))
        #expect(listed[0].scope == .singleton)
        #expect(listed[1].name == "db")
        #expect(listed[0].site.fileID.hasSuffix("RegistrationTests.swift"))
    }

    @Test func bootstrapIsAdditiveAndRethrows() async {
        let container = Container()
        await Container.withShared(container) {
            await Container.bootstrap { c in c.register(DatabaseService.self) { InMemoryDatabase() } }
            await Container.bootstrap { c in c.register(UserRepository.self) { UserRepositoryImpl() } }
            #expect(Container.shared.resolve(DatabaseService.self) != nil)
            #expect(Container.shared.resolve(UserRepository.self) != nil)
            await #expect(throws: TestFailure.self) {
                try await Container.bootstrap { _ in throw TestFailure(reason: "boom") }
            }
            await Container.reset()
            #expect(Container.shared.resolve(UserRepository.self) == nil)
        }
    }
}
