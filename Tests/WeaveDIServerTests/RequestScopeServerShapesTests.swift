#if Hummingbird
    import Atomics
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import ServiceLifecycle
    import Testing
    import WeaveDI
    import WeaveDIHummingbird
    import WeaveDIServiceLifecycle

    // The request scope and teardown in the shapes servers are written in, over real HTTP on
    // loopback: the middleware on a child container (one per route group or tenant), a root
    // service that resolves through the root it captured, a request-scoped Factory key, a HEAD
    // request answered from a GET route, work outside any request; and the teardown order of
    // services and disposables together, with private types.

    private let unitSerials = ManagedAtomic<Int>(0)

    /// A request's unit of work: a new serial per instance, its disposal logged.
    final class ShapeUnitOfWork: AsyncDisposable {
        let serial = unitSerials.wrappingIncrementThenLoad(ordering: .relaxed)
        let log: EventLog
        init(log: EventLog) { self.log = log }
        func dispose(reason: DisposalReason) async { await log.append("dispose uow\(serial) \(reason)") }
    }

    /// A root singleton whose factory captured the root; it resolves the unit of work per call.
    final class ShapeOrderService: Sendable {
        let root: Container
        init(root: Container) { self.root = root }
        func currentUnitOfWork() throws -> ShapeUnitOfWork { try root.resolveOrThrow(ShapeUnitOfWork.self) }
    }

    final class ShapeKeyed: Sendable {
        let serial = unitSerials.wrappingIncrementThenLoad(ordering: .relaxed)
    }

    extension Container {
        static let shapeKeyed = Factory(scope: .request) { ShapeKeyed() }
    }

    /// A root with the registrations, and a child the middleware binds each request on.
    struct ChildBoundFixture {
        let root = Container()
        let child: Container
        let log = EventLog()

        init() {
            let (root, log) = (root, log)
            root.register(ShapeUnitOfWork.self, scope: .request) { ShapeUnitOfWork(log: log) }
            root.register(ShapeOrderService.self, scope: .singleton) { ShapeOrderService(root: root) }
            child = Container(parent: root)
        }

        func application(
            options: RouterOptions = [], _ routes: (Router<BasicWeaveDIRequestContext>) -> Void
        ) -> some ApplicationProtocol {
            let router = Router(context: BasicWeaveDIRequestContext.self, options: options)
            router.add(middleware: RequestScopeMiddleware(container: child))
            routes(router)
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        }
    }

    @Suite("Request scopes and teardown in server shapes, over real HTTP")
    struct RequestScopeServerShapesTests {
        @Test("Middleware on a child container: every way of resolving sees this request's instance and no other's")
        func childContainerBinding() async throws {
            let fixture = ChildBoundFixture()
            let (root, child) = (fixture.root, fixture.child)
            let app = fixture.application { router in
                router.get("/work") { _, context -> String in
                    let viaContext = try context.resolve(ShapeUnitOfWork.self).serial
                    try await Task.sleep(for: .milliseconds(5))
                    let viaChild = try child.resolveOrThrow(ShapeUnitOfWork.self).serial
                    let viaCapturedRoot = try root.resolveOrThrow(ShapeOrderService.self).currentUnitOfWork().serial
                    let viaShared = Container.shared.resolve(ShapeUnitOfWork.self)?.serial ?? -1
                    let inChildTask = await Task { try? root.resolveOrThrow(ShapeUnitOfWork.self).serial }.value ?? -1
                    let key1 = try Container.shapeKeyed.resolveOrThrow().serial
                    let key2 = try Container.shapeKeyed.resolveOrThrow(in: root).serial
                    return "\(viaContext) \(viaChild) \(viaCapturedRoot) \(viaShared) \(inChildTask)|\(key1) \(key2)"
                }
            }
            let requests = 48
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<requests {
                        group.addTask {
                            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                                String(buffer: try #require(try await client.get("/work").body))
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                var units = Set<Int>()
                var keys = Set<Int>()
                for body in bodies {
                    let halves = body.split(separator: "|")
                    let ids = Set(halves[0].split(separator: " ").map { Int($0) ?? -1 })
                    let keyIDs = Set(halves[1].split(separator: " ").map { Int($0) ?? -1 })
                    #expect(ids.count == 1 && !ids.contains(-1), "one request saw several units of work: \(body)")
                    #expect(keyIDs.count == 1, "one request saw several keyed instances: \(body)")
                    units.formUnion(ids)
                    keys.formUnion(keyIDs)
                }
                #expect(units.count == requests, "two requests shared a unit of work")
                #expect(keys.count == requests, "two requests shared a request-scoped Factory key's instance")
            }
            let events = await fixture.log.waitUntil { $0.count >= requests }
            #expect(events.count == requests, "each unit of work disposed once")
            #expect(events.allSatisfy { $0.hasSuffix("completed") })
        }

        @Test("Outside any request (a detached task, a health check) a request-scoped type is an error, never shared")
        func noBinding() async throws {
            let fixture = ChildBoundFixture()
            let root = fixture.root
            let app = fixture.application { router in
                router.get("/detached") { _, context -> String in
                    let mine = try context.resolve(ShapeUnitOfWork.self).serial
                    let detached = await Task.detached { () -> String in
                        do {
                            _ = try root.resolveOrThrow(ShapeUnitOfWork.self)
                            return "shared"
                        } catch let error as DIError {
                            guard case .scopeNotBound = error else { return "other" }
                            return "unbound"
                        } catch {
                            return "other"
                        }
                    }.value
                    let throughContext = await Task.detached { try? context.resolve(ShapeUnitOfWork.self).serial }.value
                    return "\(detached) \(throughContext == mine)"
                }
            }
            try await app.test(.live) { client in
                let response = try await client.execute(uri: "/detached", method: .get)
                #expect(String(buffer: response.body) == "unbound true")
            }
            // A health check outside any request.
            #expect(throws: DIError.self) { try root.resolveOrThrow(ShapeUnitOfWork.self) }
        }

        @Test("A HEAD request answered from a GET route ends its scope with .completed")
        func headRequest() async throws {
            let fixture = ChildBoundFixture()
            let app = fixture.application(options: .autoGenerateHeadEndpoints) { router in
                router.get("/page") { _, context -> String in
                    _ = try context.resolve(ShapeUnitOfWork.self)
                    return "a page"
                }
            }
            try await app.test(.live) { client in
                let response = try await client.execute(uri: "/page", method: .head)
                #expect(response.status == .ok)
            }
            let events = await fixture.log.waitUntil { !$0.isEmpty }
            #expect(events.count == 1)
            #expect(events.first?.hasSuffix(" completed") == true, "\(events)")
        }

        @Test("One instance under a type and a protocol alias is disposed once per request")
        func aliasDisposedOnce() async throws {
            let fixture = ChildBoundFixture()
            let root = fixture.root
            root.register((any AsyncDisposable).self, scope: .request) { try root.resolveOrThrow(ShapeUnitOfWork.self) }
            let app = fixture.application { router in
                router.get("/alias") { _, context -> String in
                    let concrete = try context.resolve(ShapeUnitOfWork.self)
                    let alias = try context.resolve((any AsyncDisposable).self)
                    return "\(alias as AnyObject === concrete)"
                }
            }
            try await app.test(.live) { client in
                let response = try await client.execute(uri: "/alias", method: .get)
                #expect(String(buffer: response.body) == "true")
            }
            let events = await fixture.log.waitUntil(timeout: .milliseconds(300)) { $0.count > 1 }
            #expect(events.count == 1, "\(events)")
        }
    }

    // MARK: Teardown order

    /// A service that logs its start and stop.
    private final class PrivateDatabase: RecordingService, @unchecked Sendable {}
    /// A disposable built from a service: must be flushed before the database stops.
    private final class PrivateCache: AsyncDisposable {
        let database: PrivateDatabase
        let log: EventLog
        init(database: PrivateDatabase, log: EventLog) {
            self.database = database
            self.log = log
        }
        func dispose(reason: DisposalReason) async { await log.append("dispose PrivateCache \(reason)") }
    }
    /// A disposable pool a service depends on: must close after the service stopped.
    private final class FilePrivatePool: AsyncDisposable {
        let log: EventLog
        init(log: EventLog) { self.log = log }
        func dispose(reason: DisposalReason) async { await log.append("dispose FilePrivatePool \(reason)") }
    }
    /// A service using the pool and the cache.
    private final class FilePrivateWorker: RecordingService, @unchecked Sendable {
        let pool: FilePrivatePool
        let cache: PrivateCache
        init(log: EventLog, pool: FilePrivatePool, cache: PrivateCache) {
            self.pool = pool
            self.cache = cache
            super.init(log: log)
        }
    }

    /// A singleton that is both a service and disposable (a pool with a health-check loop).
    private final class ServicePool: RecordingService, AsyncDisposable, @unchecked Sendable {
        func dispose(reason: DisposalReason) async { await log.append("dispose ServicePool \(reason)") }
    }

    @Suite("Teardown: one order for services and disposables, from the graph")
    struct TeardownOrderTests {
        @Test("A service that is also AsyncDisposable is disposed once, after it stopped")
        func serviceThatIsDisposable() async throws {
            let log = EventLog()
            let container = Container()
            container.register(ServicePool.self, scope: .singleton) { ServicePool(log: log) }
            let group = try ContainerServiceGroup(container: container, logger: Logger(label: "pool"))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                _ = await log.waitUntil { $0.contains("start ServicePool") }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(await log.events == ["start ServicePool", "stop ServicePool", "dispose ServicePool shutdown"])
        }

        /// Registered dependents first, named so that type-name order is the wrong order.
        private func container(log: EventLog) -> Container {
            let container = Container()
            container.register(FilePrivateWorker.self, scope: .singleton) {
                FilePrivateWorker(
                    log: log, pool: container.resolve(FilePrivatePool.self)!,
                    cache: container.resolve(PrivateCache.self)!)
            }
            container.register(PrivateCache.self, scope: .singleton) {
                PrivateCache(database: container.resolve(PrivateDatabase.self)!, log: log)
            }
            container.register(FilePrivatePool.self, scope: .singleton) { FilePrivatePool(log: log) }
            container.register(PrivateDatabase.self, scope: .singleton) { PrivateDatabase(log: log) }
            return container
        }

        @Test("Private and fileprivate services start after what they depend on")
        func privateTypesStartInOrder() throws {
            let log = EventLog()
            let services = try container(log: log).servicesInDependencyOrder()
            #expect(services.map(\.name) == ["PrivateDatabase", "FilePrivateWorker"])
            #expect(services.last?.dependencies == ["PrivateDatabase"])
        }

        @Test("Local types start in dependency order too")
        func localTypesStartInOrder() throws {
            final class LocalStore: RecordingService, @unchecked Sendable {}
            final class LocalAPI: RecordingService, @unchecked Sendable {
                let store: LocalStore
                init(log: EventLog, store: LocalStore) {
                    self.store = store
                    super.init(log: log)
                }
            }
            let log = EventLog()
            let container = Container()
            container.register(LocalAPI.self, scope: .singleton) {
                LocalAPI(log: log, store: container.resolve(LocalStore.self)!)
            }
            container.register(LocalStore.self, scope: .singleton) { LocalStore(log: log) }
            #expect(try container.servicesInDependencyOrder().map(\.name) == ["LocalStore", "LocalAPI"])
        }

        @Test("Graceful shutdown tears everything down in reverse dependency order, each once")
        func teardownOrder() async throws {
            let log = EventLog()
            let container = container(log: log)
            let group = try ContainerServiceGroup(container: container, logger: Logger(label: "teardown"))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                _ = await log.waitUntil {
                    $0.contains("start FilePrivateWorker") && $0.contains("start PrivateDatabase")
                }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            let teardown = await log.events.filter { !$0.hasPrefix("start") }
            #expect(
                teardown == [
                    "stop FilePrivateWorker",
                    "dispose PrivateCache shutdown", // built from the database: flushed before it stops
                    "stop PrivateDatabase",
                    "dispose FilePrivatePool shutdown", // unrelated to the database: type-name order

                ])
            #expect(group.startedServices == ["PrivateDatabase", "FilePrivateWorker"])
        }
    }
#endif
