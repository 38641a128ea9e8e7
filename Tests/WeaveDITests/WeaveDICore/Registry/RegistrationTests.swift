import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

@Suite("Registration and resolution", .capturesLog)
struct RegistrationTests {
    @Test func resolvesWhatWasRegistered() {
        let container = Container()
        container.register(UserStore.self) { StubUserRepository() }
        let repository = container.resolve(UserStore.self)
        #expect(repository != nil)
    }

    @Test func genericResolveKeepsItsStaticType() {
        let container = Container()
        container.register(UserStore.self) { StubUserRepository() }
        // Compiles only if the generic overload wins over `resolve(_: Any.Type) -> Any?`.
        let repository: (any UserStore)? = container.resolve(UserStore.self)
        #expect(repository != nil)
        let viaFacade: (any UserStore)? = UnifiedDI.resolve(UserStore.self)
        _ = viaFacade
    }

    @Test func anyTypeResolveServesRuntimeTypeLists() {
        let container = Container()
        container.register(UserStore.self) { StubUserRepository() }
        container.register(DataStore.self) { InMemoryDataStore() }
        let critical: [Any.Type] = [UserStore.self, DataStore.self]
        for type in critical {
            #expect(container.resolve(type) != nil)
        }
        let missing: Any.Type = Counter.self
        #expect(container.resolve(missing) == nil)
    }

    @Test func unregisteredTypeResolvesToNil() {
        let container = Container()
        #expect(container.resolve(UserStore.self) == nil)
    }

    @Test func namedRegistrationsAreSeparateFromUnnamed() {
        let container = Container()
        container.register("primary", DataStore.self) { InMemoryDataStore() }
        #expect(container.resolve("primary", DataStore.self) != nil)
        #expect(container.resolve(DataStore.self) == nil)
        #expect(container.resolve("other", DataStore.self) == nil)
    }

    @Test func registeringAgainReplacesTheEarlierRegistration() {
        let container = Container()
        container.register(String.self, scope: .singleton) { "first" }
        #expect(container.resolve(String.self) == "first")
        container.register(String.self, scope: .singleton) { "second" }
        #expect(container.resolve(String.self) == "second")
    }

    @Test func replacingAfterEnableOptimizationLeavesNoStaleCache() async {
        // The switch is process-wide: it is flipped in a child process, so tests running in
        // parallel (graph recording among them) never see it.
        await #expect(processExitsWith: .success) {
            UnifiedRegistry.shared.enableOptimization()
            precondition(runtimeFlags.graphRecordingOff.load(ordering: .relaxed))
            let container = Container()
            container.register(String.self, scope: .singleton) { "first" }
            precondition(container.resolve(String.self) == "first")
            container.register(String.self) { "second" }
            precondition(container.resolve(String.self) == "second", "stale singleton after re-registration")
        }
    }

    @Test func instanceRegistrationReturnsThatInstance() {
        let container = Container()
        let repository = StubUserRepository()
        container.register(UserStore.self, instance: repository)
        #expect(container.resolve(UserStore.self) === repository)
    }

    @Test func registrationIsLazyAndOrderDoesNotMatter() {
        let container = Container()
        let built = Counter()
        container.register(UserStore.self) {
            built.increment()
            _ = container.resolve(DataStore.self)
            return StubUserRepository()
        }
        #expect(built.value == 0)
        // The dependency is registered after its dependent: fine, it is looked up on resolution.
        container.register(DataStore.self) { InMemoryDataStore() }
        #expect(container.resolve(UserStore.self) != nil)
        #expect(built.value == 1)
    }

    @Test func factoryMayRegisterWhileItRuns() {
        let container = Container()
        container.register(UserStore.self) {
            container.register(DataStore.self) { InMemoryDataStore() }
            return StubUserRepository()
        }
        #expect(container.resolve(UserStore.self) != nil)
        #expect(container.resolve(DataStore.self) != nil)
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

    @Test func functionTypesResolveInEveryLifetime() throws {
        // A closure instance is stored by generic code and read back by specialized code (and by
        // `resolve(Any.Type)`): both must agree on how the closure is represented.
        typealias Greeting = @Sendable (String) -> String
        let container = Container()
        container.register(Greeting.self, scope: .singleton) { { "hello, \($0)" } }
        container.register("shout", Greeting.self) { { $0.uppercased() } }
        container.register((@Sendable () -> Int).self, scope: .weak) { { 42 } }
        container.register("custom", Greeting.self, scope: .request) { { "request \($0)" } }
        #expect(container.resolve(Greeting.self)?("you") == "hello, you")
        #expect(container.resolve(Greeting.self)?("again") == "hello, again")
        #expect(container.resolve("shout", Greeting.self)?("quiet") == "QUIET")
        #expect(container.resolve((@Sendable () -> Int).self)?() == 42)
        let erased = try #require(container.resolve(Greeting.self as Any.Type) as? Greeting)
        #expect(erased("erased") == "hello, erased")
        container.withScope(.request) {
            #expect(container.resolve("custom", Greeting.self)?("one") == "request one")
            #expect(container.resolve("custom", Greeting.self)?("two") == "request two")
        }
    }

    @Test func aHandleNeverRemovesALaterRegistrationMadeAfterItsOwnWasRemoved() {
        let container = Container()
        let first = container.register(String.self) { "first" }
        #expect(container.unregister(String.self))
        // The first record is freed here; the next one may well reuse its address.
        for attempt in 0..<50 {
            container.register(String.self) { "later \(attempt)" }
            #expect(first.unregister() == false)
        }
        #expect(container.resolve(String.self) == "later 49")
    }

    @Test func aHandleRemovesItsOwnNamedRegistrationAndKnowsItsSite() {
        let container = Container()
        let line = #line + 1
        let handle = container.register("primary", String.self) { "named" }
        container.register(String.self) { "unnamed" }
        #expect(handle.site.line == line)
        #expect(handle.unregister())
        #expect(handle.unregister() == false)
        #expect(container.resolve("primary", String.self) == nil)
        #expect(container.resolve(String.self) == "unnamed")
    }

    @Test func moduleRegistrationBuildsNothingUntilResolved() async {
        let container = Container()
        let built = Counter()
        let module = Module(UserStore.self) {
            built.increment()
            return StubUserRepository()
        }
        await container.register(module)
        #expect(built.value == 0)
        #expect(container.resolve(UserStore.self) != nil)
        #expect(built.value == 1)
        #expect(module.description.contains("UserStore"))
    }

    @Test func registrationsListsWhatIsRegisteredWithWhere() {
        let container = Container()
        container.register(UserStore.self, scope: .singleton) { StubUserRepository() }
        container.register("db", DataStore.self) { InMemoryDataStore() }
        let listed = container.registrations
        #expect(listed.count == 2)
        #expect(listed[0].displayName.contains("UserStore"))
        #expect(listed[0].scope == .singleton)
        #expect(listed[1].name == "db")
        #expect(listed[0].site.fileID.hasSuffix("RegistrationTests.swift"))
    }

    @Test func bootstrapIsAdditiveAndRethrows() async {
        let container = Container()
        await Container.withShared(container) {
            await Container.bootstrap { c in c.register(DataStore.self) { InMemoryDataStore() } }
            await Container.bootstrap { c in c.register(UserStore.self) { StubUserRepository() } }
            #expect(Container.shared.resolve(DataStore.self) != nil)
            #expect(Container.shared.resolve(UserStore.self) != nil)
            await #expect(throws: TestFailure.self) {
                try await Container.bootstrap { _ in throw TestFailure(reason: "boom") }
            }
            await Container.reset()
            #expect(Container.shared.resolve(UserStore.self) == nil)
        }
    }
}

/// A trailing closure after a top type (`Any`, `Any?`, `any Sendable`) registers a factory: the
/// closure converts to those types too, and used to be stored as the instance.
@Suite("Registration of top types")
struct TopTypeRegistrationTests {
    @Test func anyWithATrailingClosureRegistersAFactory() {
        let container = Container()
        container.register(Any.self) { 42 }
        #expect(container.resolve(Any.self) as? Int == 42)
        container.register("answer", Any.self) { 43 }
        #expect(container.resolve("answer", Any.self) as? Int == 43)
    }

    @Test func optionalAnyWithATrailingClosureRegistersAFactory() {
        let container = Container()
        container.register(Any?.self) { 42 }
        let resolved: Any?? = container.resolve(Any?.self)
        #expect(resolved.flatMap { $0 } as? Int == 42)
    }

    @Test func anySendableWithATrailingClosureRegistersAFactory() {
        let container = Container()
        container.register((any Sendable).self, scope: .singleton) { 42 }
        #expect(container.resolve((any Sendable).self) as? Int == 42)
        container.register("text", (any Sendable).self) { "built" }
        #expect(container.resolve("text", (any Sendable).self) as? String == "built")
    }

    @Test func theFactoryRunsAtResolutionNotAtRegistration() {
        let container = Container()
        let builds = Counter()
        container.register(Any.self) { builds.increment() }
        #expect(builds.value == 0)
        _ = container.resolve(Any.self)
        _ = container.resolve(Any.self)
        #expect(builds.value == 2)
    }

    @Test func theInstanceFormWithItsLabelStillStoresAClosure() {
        let container = Container()
        let closure: @Sendable () -> Int = { 7 }
        container.register(Any.self, instance: closure)
        #expect((container.resolve(Any.self) as? @Sendable () -> Int)?() == 7)
    }

    @Test func registerManyWithATrailingClosureRegistersAFactory() {
        let container = Container()
        Container.withShared(container) {
            UnifiedDI.registerMany {
                Registration(Any.self) { 42 }
            }
        }
        let resolved = container.resolve(Any.self)
        #expect(resolved as? Int == 42, "\(String(describing: resolved))")
    }
}
