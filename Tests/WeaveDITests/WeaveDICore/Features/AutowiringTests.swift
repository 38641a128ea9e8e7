import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

private protocol AWAPI: Sendable { var id: Int { get } }
private final class AWAPIImpl: AWAPI {
    let id: Int
    init() { id = 1 }
    init(id: Int) { self.id = id }
}
private protocol AWStore: Sendable {}
private final class AWStoreImpl: AWStore {}
private struct AWClock: Sendable { let now: Int }

private protocol AWUserService: Sendable {
    var api: any AWAPI { get }
    var hasClock: Bool { get }
}
private final class AWUserServiceImpl: AWUserService {
    let api: any AWAPI
    let store: any AWStore
    let clock: AWClock?
    /// Counts every instance built: proves when a factory ran, and when it did not.
    static let built = Counter()

    init(api: any AWAPI, store: any AWStore, clock: AWClock) {
        self.api = api
        self.store = store
        self.clock = clock
        Self.built.increment()
    }

    init(api: any AWAPI, store: any AWStore) {
        self.api = api
        self.store = store
        clock = nil
        Self.built.increment()
    }

    var hasClock: Bool { clock != nil }
}

/// Like ``AWUserServiceImpl`` with its own counter, for tests that assert nothing was built
/// (tests run in parallel; a shared counter would see the others' instances).
private final class AWUnbuiltService: AWUserService {
    let api: any AWAPI
    let hasClock = true
    static let built = Counter()
    init(api: any AWAPI, clock: AWClock) {
        self.api = api
        Self.built.increment()
    }
}

private final class AWConsumer: Sendable {
    let api: any AWAPI
    init(api: any AWAPI) { self.api = api }
}

private struct AWInvalidKey: Error {}
private final class AWKeyed: Sendable {
    init(api: any AWAPI) throws { throw AWInvalidKey() }
}

private protocol AWDatabase: AnyObject, Sendable { var url: String { get } }
private final class AWAsyncConfig: Sendable {
    let url: String
    init(url: String) { self.url = url }
}
private struct AWConfigReader {
    let config: AWAsyncConfig
}

private final class AWSQLDatabase: AWDatabase {
    let url: String
    init(config: AWAsyncConfig, api: any AWAPI) async {
        await Task.yield()
        url = config.url + "#\(api.id)"
    }
}

private final class AWCycleA: Sendable {
    init(b: AWCycleB) {}
}
private final class AWCycleB: Sendable {
    init(a: AWCycleA) {}
}

private final class AWLogged: AWUserService {
    let inner: any AWUserService
    init(_ inner: any AWUserService) { self.inner = inner }
    var api: any AWAPI { inner.api }
    var hasClock: Bool { inner.hasClock }
}

private final class AWInjectOwner {
    @Inject var service: (any AWUserService)?
}

@MainActor
private final class AWViewModel {
    let api: any AWAPI
    init(api: any AWAPI) {
        // Checked at run time too: the conversion to an async function hops to the main actor.
        MainActor.assertIsolated()
        self.api = api
    }
}

private func ids(_ dependencies: [Container.DeclaredDependency]?) -> [ObjectIdentifier]? {
    dependencies?.map { ObjectIdentifier($0.type) }
}

@Suite("Autowiring", .capturesLog)
struct AutowiringTests {
    @Test func anInitializerWithoutParametersIsAutowired() throws {
        let container = Container()
        container.register(AWStore.self, initializer: AWStoreImpl.init)
        #expect(try container.resolveOrThrow(AWStore.self) is AWStoreImpl)
        #expect(ids(container.declaredDependencies(of: AWStore.self)) == [])
    }

    @Test func oneParameterIsResolved() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl(id: 7) }
        container.register(AWConsumer.self, initializer: AWConsumer.init(api:))
        #expect(try container.resolveOrThrow(AWConsumer.self).api.id == 7)
        #expect(ids(container.declaredDependencies(of: AWConsumer.self)) == [ObjectIdentifier(AWAPI.self)])
    }

    @Test func threeParametersAreResolvedAndDeclaredInOrder() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl(id: 3) }
        container.register(AWStore.self, initializer: AWStoreImpl.init)
        container.register(AWClock.self) { AWClock(now: 42) }
        container.register(AWUserService.self, initializer: AWUserServiceImpl.init(api:store:clock:))
        let service = try container.resolveOrThrow(AWUserService.self)
        #expect(service.api.id == 3)
        #expect(service.hasClock)
        #expect(
            ids(container.declaredDependencies(of: AWUserService.self))
                == [ObjectIdentifier(AWAPI.self), ObjectIdentifier(AWStore.self), ObjectIdentifier(AWClock.self)])
        let info = try #require(container.registrations.first { $0.type == AWUserService.self })
        #expect(info.isAutowired)
        #expect(info.declaredDependencies.count == 3)
        #expect(container.registrations.first { $0.type == AWAPI.self }?.isAutowired == false)
        #expect(container.declaredDependencies(of: AWConsumer.self) == nil, "not registered")
    }

    @Test func anExplicitInitializerIsPickedAmongSeveral() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register(AWStore.self, initializer: AWStoreImpl.init)
        // The two-parameter initializer: no clock is registered, and none is needed.
        container.register(AWUserService.self, initializer: AWUserServiceImpl.init(api:store:))
        #expect(try container.resolveOrThrow(AWUserService.self).hasClock == false)
        #expect(container.declaredDependencies(of: AWUserService.self)?.count == 2)
    }

    @Test func trailingClosuresStillRegisterFactoriesAndArgumentFactories() throws {
        let container = Container()
        container.register(AWAPI.self, scope: .singleton) { AWAPIImpl(id: 5) }
        #expect(container.registrations.first { $0.type == AWAPI.self }?.isAutowired == false)
        // A closure taking a value is an argument registration, not an autowired one.
        container.register(AWConsumer.self) { (id: Int) in AWConsumer(api: AWAPIImpl(id: id)) }
        #expect(container.resolve(AWConsumer.self, argument: 9)?.api.id == 9)
        #expect(container.declaredDependencies(of: AWConsumer.self)?.isEmpty == true)
    }

    @Test func aThrowingInitializerFailsTheResolutionWithItsError() {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register(AWKeyed.self, initializer: AWKeyed.init(api:))
        #expect {
            try container.resolveOrThrow(AWKeyed.self)
        } throws: { error in
            guard case .factoryFailed(let type, _, let underlying) = error as? DIError else { return false }
            return type == AWKeyed.self && underlying is AWInvalidKey
        }
    }

    @Test func anAsyncInitializerAwaitsItsAsyncRegisteredParameters() async throws {
        let container = Container()
        container.registerAsync(AWAsyncConfig.self, scope: .singleton) {
            await Task.yield()
            return AWAsyncConfig(url: "db://main")
        }
        container.register(AWAPI.self) { AWAPIImpl(id: 2) }
        container.registerAsync(AWDatabase.self, scope: .singleton, initializer: AWSQLDatabase.init(config:api:))
        let database = try await container.resolveAsync(AWDatabase.self)
        #expect(database.url == "db://main#2")
        #expect(try await container.resolveAsync(AWDatabase.self) === database)
        #expect(container.declaredDependencies(of: AWDatabase.self)?.count == 2)
        #expect(container.registrations.first { $0.type == AWDatabase.self }?.isAutowired == true)
        #expect {
            try container.resolveOrThrow(AWDatabase.self)
        } throws: { error in
            guard case .asyncResolutionRequired(let type, _) = error as? DIError else { return false }
            return type == AWDatabase.self
        }
    }

    @Test func aSynchronousInitializerNeedingAnAsyncOnlyTypeIsToldToBeRegisteredAsync() throws {
        let container = Container()
        container.registerAsync(AWAsyncConfig.self) { AWAsyncConfig(url: "db://main") }
        container.register(AWConfigReader.self, initializer: AWConfigReader.init(config:))
        #expect {
            try container.resolveOrThrow(AWConfigReader.self)
        } throws: { error in
            guard case .asyncResolutionRequired(let type, _) = error as? DIError else { return false }
            // The message names the parameter's type and what to change: the user never resolves
            // it directly, so "resolve it with resolveAsync" alone does not say what to do.
            let message = "\(error)"
            return type == AWAsyncConfig.self && message.contains("AWAsyncConfig")
                && message.contains("registered with registerAsync and resolved with resolveAsync")
        }
    }

    @Test func aSynchronousInitializerMayBeRegisteredAsyncToAwaitItsParameters() async throws {
        let container = Container()
        container.registerAsync(AWAPI.self) {
            await Task.yield()
            return AWAPIImpl(id: 8)
        }
        // `register(_:initializer:)` would resolve `AWAPI` synchronously, which an async
        // registration refuses; the async form awaits it.
        container.registerAsync(AWConsumer.self, initializer: AWConsumer.init(api:))
        #expect(try await container.resolveAsync(AWConsumer.self).api.id == 8)
    }

    @Test func everyLifetimeWorks() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register(AWConsumer.self, initializer: AWConsumer.init(api:))
        container.register("single", AWConsumer.self, scope: .singleton) { AWConsumer(api: AWAPIImpl()) }
        #expect(try container.resolveOrThrow(AWConsumer.self) !== container.resolveOrThrow(AWConsumer.self))

        let singleton = Container()
        singleton.register(AWAPI.self) { AWAPIImpl() }
        singleton.register(AWConsumer.self, scope: .singleton, initializer: AWConsumer.init(api:))
        #expect(try singleton.resolveOrThrow(AWConsumer.self) === singleton.resolveOrThrow(AWConsumer.self))

        let weak = Container()
        weak.register(AWAPI.self) { AWAPIImpl() }
        weak.register(AWConsumer.self, scope: .weak, initializer: AWConsumer.init(api:))
        let held = try weak.resolveOrThrow(AWConsumer.self)
        #expect(try weak.resolveOrThrow(AWConsumer.self) === held)

        let scoped = Container()
        scoped.register(AWAPI.self) { AWAPIImpl() }
        scoped.register(AWConsumer.self, scope: .request, initializer: AWConsumer.init(api:))
        let (first, again) = try scoped.withScope(.request) {
            (try scoped.resolveOrThrow(AWConsumer.self), try scoped.resolveOrThrow(AWConsumer.self))
        }
        #expect(first === again)
        let next = try scoped.withScope(.request) { try scoped.resolveOrThrow(AWConsumer.self) }
        #expect(next !== first)
    }

    @Test func aNamedRegistrationStandsBesideTheUnnamedOne() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl(id: 1) }
        container.register(AWConsumer.self, initializer: AWConsumer.init(api:))
        container.register(AWConsumer.self, name: "audit", scope: .singleton, initializer: AWConsumer.init(api:))
        let audit = try container.resolveOrThrow("audit", AWConsumer.self)
        #expect(try container.resolveOrThrow("audit", AWConsumer.self) === audit)
        #expect(try container.resolveOrThrow(AWConsumer.self) !== audit)
        #expect(container.declaredDependencies(of: AWConsumer.self, name: "audit")?.count == 1)
    }

    @Test func parametersResolveThroughTheChildThatAsked() throws {
        let parent = Container()
        parent.register(AWAPI.self) { AWAPIImpl(id: 1) }
        parent.register(AWConsumer.self, initializer: AWConsumer.init(api:))
        let child = Container(parent: parent)
        child.register(AWAPI.self) { AWAPIImpl(id: 2) }
        let grandchild = Container(parent: child)
        #expect(try child.resolveOrThrow(AWConsumer.self).api.id == 2)
        #expect(try grandchild.resolveOrThrow(AWConsumer.self).api.id == 2)
        #expect(try parent.resolveOrThrow(AWConsumer.self).api.id == 1)
        #expect((child.resolve(AWConsumer.self as Any.Type) as? AWConsumer)?.api.id == 2)
        // A parent factory resolving an autowired type through its captured parent is not the
        // child's resolution: the parent's parameters apply there.
        parent.register(AWStore.self) {
            _ = try parent.resolveOrThrow(AWConsumer.self)
            return AWStoreImpl()
        }
        parent.register("viaParent", AWConsumer.self) {
            let consumer = try parent.resolveOrThrow(AWConsumer.self)
            _ = try parent.resolveOrThrow(AWStore.self)
            return consumer
        }
        #expect(try child.resolveOrThrow("viaParent", AWConsumer.self).api.id == 1)
    }

    @Test func aSharedInstanceIsBuiltThroughTheContainerWhoseResolutionBuiltIt() throws {
        let parent = Container()
        parent.register(AWAPI.self) { AWAPIImpl(id: 1) }
        parent.register(AWConsumer.self, scope: .singleton, initializer: AWConsumer.init(api:))
        let child = Container(parent: parent)
        child.register(AWAPI.self) { AWAPIImpl(id: 2) }
        let built = try child.resolveOrThrow(AWConsumer.self)
        #expect(built.api.id == 2)
        #expect(try parent.resolveOrThrow(AWConsumer.self) === built, "then shared")
    }

    @Test func asyncParametersResolveThroughTheChildThatAsked() async throws {
        let parent = Container()
        parent.register(AWAPI.self) { AWAPIImpl(id: 1) }
        parent.registerAsync(AWConsumer.self, initializer: AWConsumer.init(api:))
        parent.register(AWConsumer.self, name: "sync", initializer: AWConsumer.init(api:))
        let child = Container(parent: parent)
        child.register(AWAPI.self) { AWAPIImpl(id: 2) }
        #expect(try await child.resolveAsync(AWConsumer.self).api.id == 2)
        #expect(try await child.resolveAsync("sync", AWConsumer.self).api.id == 2)
        #expect(try await parent.resolveAsync(AWConsumer.self).api.id == 1)
    }

    @Test func validatingAChildBuildsAParentsAutowiredRegistrationThroughTheChild() async throws {
        // What `child.resolve` does, `child.validate()` checks: the parameter the child provides
        // is found, and the parent alone still lacks it.
        let parent = Container()
        parent.register(AWConsumer.self, initializer: AWConsumer.init(api:))
        parent.registerAsync(AWConsumer.self, name: "async", initializer: AWConsumer.init(api:))
        let child = Container(parent: parent)
        child.register(AWAPI.self) { AWAPIImpl(id: 2) }
        #expect(try child.resolveOrThrow(AWConsumer.self).api.id == 2)
        #expect(try await child.resolveAsync("async", AWConsumer.self).api.id == 2)
        #expect(child.validate().missingDependencies.isEmpty)
        #expect(await child.validateAsync().missingDependencies.isEmpty)
        #expect(parent.validate().missingDependencies.contains { $0.missingType == AWAPI.self })
        #expect(await parent.validateAsync().missingDependencies.contains { $0.missingType == AWAPI.self })
        // The health check builds it as the checked container would, too.
        let health = await child.checkHealth(timeout: 5)
        #expect(!health.values.contains { if case .unhealthy = $0 { true } else { false } })
    }

    @Test func aMissingParameterIsReportedByValidateWithoutBuildingAnything() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register("wall", AWClock.self) { AWClock(now: 0) }
        container.register(AWUserService.self, initializer: AWUnbuiltService.init(api:clock:))
        let report = container.validate()
        let missing = try #require(report.missingDependencies.first { $0.missingType == AWClock.self })
        #expect(missing.dependent == "WeaveDITests.AWUserService")
        #expect(missing.isDeclared)
        #expect(!missing.wasRequested, "reported from the record, not by building it")
        #expect(missing.similar == ["WeaveDITests.AWClock[\"wall\"]"])
        #expect(missing.description.contains("a parameter of its autowired initializer"))
        #expect(missing.description.contains("AutowiringTests.swift"))
        #expect(missing.description.contains("Registered look-alikes: WeaveDITests.AWClock[\"wall\"]"))
        #expect(AWUnbuiltService.built.value == 0, "the registration was not built")
    }

    @Test func validateAsyncReportsAMissingParameterOfAnAsyncInitializer() async throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.registerAsync(AWDatabase.self, initializer: AWSQLDatabase.init(config:api:))
        let report = await container.validateAsync()
        let missing = try #require(report.missingDependencies.first { $0.missingType == AWAsyncConfig.self })
        #expect(missing.dependent == "WeaveDITests.AWDatabase")
        #expect(missing.isDeclared && !missing.wasRequested, "reported from the record, not by building it")
        #expect(container.validate().missingDependencies.contains { $0.missingType == AWAsyncConfig.self })
    }

    @Test func aMissingParameterFailsTheResolutionWithTheUsualError() {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register(AWUserService.self, initializer: AWUserServiceImpl.init(api:store:clock:))
        container.register(AWStore.self, initializer: AWStoreImpl.init)
        #expect {
            try container.resolveOrThrow(AWUserService.self)
        } throws: { error in
            guard case .dependencyNotFound(let type, nil, _) = error as? DIError else { return false }
            return type == AWClock.self
        }
        // The same error, and the same report, as a hand-written factory's.
        let handWritten = Container()
        handWritten.register(AWAPI.self) { AWAPIImpl() }
        handWritten.register(AWStore.self, initializer: AWStoreImpl.init)
        handWritten.register(AWUserService.self) {
            AWUserServiceImpl(
                api: try handWritten.resolveOrThrow(AWAPI.self), store: try handWritten.resolveOrThrow(AWStore.self),
                clock: try handWritten.resolveOrThrow(AWClock.self))
        }
        var errors: [String] = []
        for candidate in [container, handWritten] {
            do { _ = try candidate.resolveOrThrow(AWUserService.self) } catch { errors.append("\(error)") }
        }
        #expect(errors.count == 2 && errors[0] == errors[1], "\(errors)")
        #expect(!capturedProblems(mentioning: "No registration for WeaveDITests.AWClock").isEmpty)
    }

    @Test func theGraphKnowsTheEdgesWithoutRunningTheFactory() {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register(AWClock.self) { AWClock(now: 1) }
        container.register(AWUserService.self, initializer: AWUnbuiltService.init(api:clock:))
        let graph = container.dependencyGraph()
        let service = graph.nodes(typeName: "WeaveDITests.AWUserService")
        #expect(service.count == 1)
        let dependencies = service.first.map { graph.dependencies(of: $0.id).map(\.label) } ?? []
        #expect(dependencies == ["AWAPI", "AWClock"])
        #expect(graph.edges.filter { $0.from == service.first?.id }.allSatisfy { $0.isDeclared && !$0.isResolved })
        #expect(AWUnbuiltService.built.value == 0, "the graph ran no factory")
    }

    @Test func cyclesAmongAutowiredTypesAreReportedWithTheirPath() {
        let container = Container()
        container.register(AWCycleA.self, initializer: AWCycleA.init(b:))
        container.register(AWCycleB.self, initializer: AWCycleB.init(a:))
        let path = ["WeaveDITests.AWCycleA", "WeaveDITests.AWCycleB", "WeaveDITests.AWCycleA"]
        #expect {
            try container.resolveOrThrow(AWCycleA.self)
        } throws: { error in
            guard case .circularDependency(let found) = error as? DIError else { return false }
            return found == path
        }
        #expect(container.validate().cycles.map(\.path) == [path])
    }

    @Test func decoratorsApply() throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl() }
        container.register(AWStore.self, initializer: AWStoreImpl.init)
        container.register(AWUserService.self, scope: .singleton, initializer: AWUserServiceImpl.init(api:store:))
        container.decorate(AWUserService.self) { AWLogged($0) }
        #expect(try container.resolveOrThrow(AWUserService.self) is AWLogged)
    }

    @Test func manyThreadsShareOneAutowiredSingletonThroughParentAndChild() async {
        let parent = Container()
        parent.register(AWAPI.self) { AWAPIImpl(id: 1) }
        parent.register(AWConsumer.self, scope: .singleton, initializer: AWConsumer.init(api:))
        let child = Container(parent: parent)
        // The same parameter in both: whichever thread builds, the instance is the same kind.
        child.register(AWAPI.self) { AWAPIImpl(id: 1) }
        let instances = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for index in 0..<16 {
                group.addTask {
                    await Task.detached {
                        let container = index.isMultiple(of: 2) ? parent : child
                        return container.resolve(AWConsumer.self).map(ObjectIdentifier.init)
                    }.value
                }
            }
            var all = Set<ObjectIdentifier?>()
            for await value in group { all.insert(value) }
            return all
        }
        #expect(instances.count == 1)
        #expect(instances.first.flatMap { $0 } != nil)
    }

    @Test func concurrentTasksShareOneAsyncAutowiredSingleton() async throws {
        let container = Container()
        container.registerAsync(AWAsyncConfig.self, scope: .singleton) { AWAsyncConfig(url: "db://x") }
        container.register(AWAPI.self) { AWAPIImpl(id: 3) }
        container.registerAsync(AWDatabase.self, scope: .singleton, initializer: AWSQLDatabase.init(config:api:))
        let urls = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { ObjectIdentifier(try await container.resolveAsync(AWDatabase.self)) } }
            var all = Set<ObjectIdentifier>()
            for try await value in group { all.insert(value) }
            return all
        }
        #expect(urls.count == 1)
    }

    @Test func aMainActorInitializerRunsOnTheMainActor() async throws {
        let container = Container()
        container.register(AWAPI.self) { AWAPIImpl(id: 5) }
        // A main-actor initializer is synchronous only on the main actor: register it async.
        container.registerAsync(AWViewModel.self, initializer: AWViewModel.init(api:))
        let model = try await Task.detached { try await container.resolveAsync(AWViewModel.self) }.value
        #expect(model.api.id == 5)
    }

    @Test func theSharedContainerAndUnifiedDIResolveIt() {
        withFreshContainer { container in
            container.register(AWAPI.self) { AWAPIImpl(id: 6) }
            container.register(AWConsumer.self, initializer: AWConsumer.init(api:))
            #expect(UnifiedDI.resolve(AWConsumer.self)?.api.id == 6)
            #expect(Container.shared.resolve(AWConsumer.self)?.api.id == 6)
        }
    }

    @Test func propertyWrappersReadTheAutowiredType() {
        withFreshContainer { container in
            container.register(AWAPI.self) { AWAPIImpl(id: 4) }
            container.register(AWStore.self, initializer: AWStoreImpl.init)
            container.register(AWUserService.self, initializer: AWUserServiceImpl.init(api:store:))
            #expect(AWInjectOwner().service?.api.id == 4)
        }
    }
}
