#if Hummingbird
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import ServiceLifecycle
    import Testing
    import WeaveDI
    import WeaveDIHummingbird
    import WeaveDIServiceLifecycle

    /// A service that logs when it starts and stops (on graceful shutdown).
    class RecordingService: Service, @unchecked Sendable {
        let log: EventLog
        var name: String { String(describing: type(of: self)) }
        init(log: EventLog) { self.log = log }

        func run() async throws {
            await log.append("start \(name)")
            try? await gracefulShutdown()
            await log.append("stop \(name)")
        }
    }

    final class Database: RecordingService, @unchecked Sendable {}
    /// Not a service: reached by `Cache` through it, so `Cache` depends on `Database` through a transient.
    struct Repository: Sendable { let database: Database }
    final class Cache: RecordingService, @unchecked Sendable {
        let repository: Repository
        init(log: EventLog, repository: Repository) {
            self.repository = repository
            super.init(log: log)
        }
    }
    final class Mailer: RecordingService, @unchecked Sendable {
        let cache: Cache
        let templates: Templates
        init(log: EventLog, cache: Cache, templates: Templates) {
            self.cache = cache
            self.templates = templates
            super.init(log: log)
        }
    }
    final class Alpha: RecordingService, @unchecked Sendable {}
    final class Zeta: RecordingService, @unchecked Sendable {}

    /// Singletons that are not services, with async disposal.
    final class Templates: AsyncDisposable {
        let log: EventLog
        init(log: EventLog) { self.log = log }
        func dispose(reason: DisposalReason) async { await log.append("dispose Templates \(reason)") }
    }
    final class Metrics: AsyncDisposable {
        let log: EventLog
        init(log: EventLog) { self.log = log }
        func dispose(reason: DisposalReason) async { await log.append("dispose Metrics \(reason)") }
    }

    /// Registered dependents first: the order must come from the graph, not from registration.
    func shopLikeContainer(log: EventLog) -> Container {
        let container = Container()
        container.register(Mailer.self, scope: .singleton) {
            Mailer(log: log, cache: container.resolve(Cache.self)!, templates: container.resolve(Templates.self)!)
        }
        container.register(Templates.self, scope: .singleton) { Templates(log: log) }
        container.register(Cache.self, scope: .singleton) {
            Cache(log: log, repository: container.resolve(Repository.self)!)
        }
        container.register(Repository.self) { Repository(database: container.resolve(Database.self)!) }
        container.register(Metrics.self, scope: .singleton) { Metrics(log: log) }
        container.register(Database.self, scope: .singleton) { Database(log: log) }
        return container
    }

    @Suite("Service lifecycle: dependency order, graceful shutdown, disposal")
    struct ServiceLifecycleTests {
        @Test("Services come in dependency order, found through non-service registrations")
        func order() throws {
            let container = shopLikeContainer(log: EventLog())
            let services = try container.servicesInDependencyOrder()
            #expect(services.map(\.name) == ["Database", "Cache", "Mailer"])
            #expect(services[1].dependencies == ["Database"])
            #expect(services[2].dependencies == ["Cache", "Database"])
        }

        @Test(
            "Async singletons: the async form builds them and orders them by the graph; the synchronous form refuses them"
        )
        func asyncSingletons() async throws {
            let log = EventLog()
            let container = Container()
            container.registerAsync(Cache.self, scope: .singleton) {
                Cache(log: log, repository: Repository(database: try await container.resolveAsync(Database.self)))
            }
            container.registerAsync(Database.self, scope: .singleton) {
                await Task.yield()
                return Database(log: log)
            }
            container.register(Alpha.self, scope: .singleton) { Alpha(log: log) }

            #expect {
                try container.servicesInDependencyOrder()
            } throws: { error in
                guard case .unresolvable(_, let underlying)? = error as? ServiceOrderError,
                    case .asyncResolutionRequired? = underlying
                else { return false }
                return true
            }
            let services = try await container.servicesInDependencyOrderAsync()
            #expect(services.map(\.name) == ["Alpha", "Database", "Cache"])
            #expect(services[2].dependencies == ["Database"])

            let group = try await ContainerServiceGroup.resolvingAsync(
                container: container, logger: Logger(label: "test"))
            #expect(group.services.map(\.name) == ["Alpha", "Database", "Cache"])
            #expect(group.services[1].service as AnyObject === (try await container.resolveAsync(Database.self)))
        }

        @Test("Services that do not depend on each other are ordered by type name, not registration")
        func tieBreak() throws {
            let container = Container()
            let log = EventLog()
            container.register(Zeta.self, scope: .singleton) { Zeta(log: log) }
            container.register(Alpha.self, scope: .singleton) { Alpha(log: log) }
            #expect(try container.servicesInDependencyOrder().map(\.name) == ["Alpha", "Zeta"])
        }

        @Test(
            "With a live HTTP server: start in dependency order, a request in flight finishes during graceful shutdown, stop in reverse, then disposal"
        )
        func liveServerLifecycle() async throws {
            let log = EventLog()
            let container = shopLikeContainer(log: log)
            container.register(RequestToken.self, scope: .request) { RequestToken(id: 1, log: log) }

            let router = Router(context: BasicWeaveDIRequestContext.self)
            router.add(middleware: RequestScopeMiddleware(container: container))
            router.get("/slow") { _, context -> String in
                _ = try context.resolve(RequestToken.self)
                await log.append("request started")
                try await Task.sleep(for: .milliseconds(300))
                await log.append("request finished")
                return "done"
            }
            let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in
                    portContinuation.yield(channel.localAddress?.port ?? 0)
                    portContinuation.finish()
                },
                logger: Logger(label: "test-server"))
            let group = try ContainerServiceGroup(
                container: container, additionalServices: [app], logger: Logger(label: "test-group"))
            #expect(group.services.map(\.name) == ["Database", "Cache", "Mailer"])

            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var ports = portStream.makeAsyncIterator()
                let port = try #require(await ports.next())
                tasks.addTask {
                    let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                        try await client.get("/slow")
                    }
                    #expect(response.status == .ok)
                    #expect(response.body.map { String(buffer: $0) } == "done")
                }
                _ = await log.waitUntil { $0.contains("request started") }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }

            let events = await log.events
            let starts = events.filter { $0.hasPrefix("start") }
            let stops = events.filter { $0.hasPrefix("stop") }
            // The order in which run() was called (each service's own "start" log line may come a
            // moment later, from its own task, so their interleaving is not the start order).
            #expect(Array(group.startedServices.prefix(3)) == ["Database", "Cache", "Mailer"])
            #expect(Set(starts) == ["start Database", "start Cache", "start Mailer"])
            #expect(stops == ["stop Mailer", "stop Cache", "stop Database"])
            // The request finished (and its scope was disposed) before any service stopped.
            let finished = try #require(events.firstIndex(of: "request finished"))
            let requestDisposed = try #require(events.firstIndex(of: "dispose 1 completed"))
            let firstStop = try #require(events.firstIndex(of: "stop Mailer"))
            #expect(finished < firstStop && requestDisposed < firstStop)
            // Services and disposables are torn down in one order, the reverse of the graph's:
            // Templates (which Mailer uses) after Mailer stopped; Metrics (unrelated) at its
            // type-name place; each once, none left for after the group.
            let teardown = events.filter {
                $0.hasPrefix("stop") || ($0.hasPrefix("dispose") && !$0.hasPrefix("dispose 1"))
            }
            #expect(
                teardown == [
                    "stop Mailer", "dispose Templates shutdown", "dispose Metrics shutdown", "stop Cache",
                    "stop Database",
                ])
        }
    }
#endif
