#if Hummingbird
    import Hummingbird
    import HummingbirdTesting
    import Testing
    import WeaveDI
    import WeaveDIHummingbird
    import WeaveDITestSupport

    /// Resolved through `@Inject`, which reads `Container.shared`: the middleware binds both.
    struct InjectedReader {
        @Inject var token: RequestToken?
    }

    /// A route table over a container whose `RequestToken` is request-scoped.
    struct RequestScopeFixture {
        let container = Container()
        let log = EventLog()
        let counter = Counter()
        let live = LiveInstances()

        init() {
            let (log, counter, live) = (log, counter, live)
            container.register(RequestToken.self, scope: .request) {
                let token = RequestToken(id: counter.next(), log: log)
                live.track(token)
                return token
            }
        }

        func application(_ routes: (Router<BasicWeaveDIRequestContext>) -> Void) -> some ApplicationProtocol {
            let router = Router(context: BasicWeaveDIRequestContext.self)
            router.add(middleware: RequestScopeMiddleware(container: container))
            routes(router)
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        }
    }

    @Suite("RequestScopeMiddleware over real HTTP")
    struct RequestScopeMiddlewareTests {
        @Test(
            "Concurrent requests each see their own instance, through every way of resolving, and none outlives its request"
        )
        func isolation() async throws {
            let fixture = RequestScopeFixture()
            let container = fixture.container
            let app = fixture.application { router in
                router.get("/token") { _, context -> String in
                    let viaContext = try context.resolve(RequestToken.self)
                    try await Task.sleep(for: .milliseconds(10))
                    let viaContainer = try container.resolveOrThrow(RequestToken.self)
                    let viaInject = InjectedReader().token
                    let viaSharedInChildTask = await Task { Container.shared.resolve(RequestToken.self)?.id }.value
                    return "\(viaContext.id) \(viaContainer.id) \(viaInject?.id ?? -1) \(viaSharedInChildTask ?? -1)"
                }
            }
            let requests = 64
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<requests {
                        group.addTask {
                            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                                let response = try await client.get("/token")
                                return String(buffer: try #require(response.body))
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                var seen = Set<Int>()
                for body in bodies {
                    let ids = body.split(separator: " ").compactMap { Int($0) }
                    #expect(ids.count == 4 && Set(ids).count == 1, "one request saw several instances: \(body)")
                    seen.insert(ids.first ?? -1)
                }
                #expect(seen.count == requests, "two requests shared an instance")
            }
            let events = await fixture.log.waitUntil { $0.count >= requests }
            #expect(events.count == requests)
            #expect(events.allSatisfy { $0.hasSuffix("completed") })
            #expect(fixture.live.aliveCount == 0, "a request-scoped instance outlived its request")
        }

        @Test("Teardown runs after the response body has been written, with reason .completed")
        func teardownAfterBodyWritten() async throws {
            let fixture = RequestScopeFixture()
            let log = fixture.log
            let app = fixture.application { router in
                router.get("/stream") { _, context -> Response in
                    _ = try context.resolve(RequestToken.self)
                    return Response(
                        status: .ok,
                        body: ResponseBody { writer in
                            try await writer.write(ByteBuffer(string: "part one, "))
                            try await Task.sleep(for: .milliseconds(20))
                            try await writer.write(ByteBuffer(string: "part two"))
                            await log.append("body written")
                            try await writer.finish(nil)
                        })
                }
            }
            try await app.test(.live) { client in
                try await client.execute(uri: "/stream", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "part one, part two")
                }
            }
            let events = await log.waitUntil { $0.count >= 2 }
            #expect(events == ["body written", "dispose 1 completed"])
        }

        @Test("A handler that throws ends its request scope with .failed, and the client gets the error status")
        func teardownOnThrow() async throws {
            let fixture = RequestScopeFixture()
            let app = fixture.application { router in
                router.post("/fail") { _, context -> String in
                    _ = try context.resolve(RequestToken.self)
                    throw HTTPError(.conflict, message: "already paid")
                }
            }
            try await app.test(.live) { client in
                try await client.execute(uri: "/fail", method: .post) { response in
                    #expect(response.status == .conflict)
                }
            }
            let events = await fixture.log.waitUntil { !$0.isEmpty }
            #expect(events == ["dispose 1 failed"])
            #expect(fixture.live.aliveCount == 0)
        }

        @Test("A request whose client goes away is cancelled and its scope ends with .cancelled")
        func teardownOnCancelledRequest() async throws {
            let fixture = RequestScopeFixture()
            let log = fixture.log
            let app = fixture.application { router in
                router.post("/slow") { request, context -> String in
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        _ = try context.resolve(RequestToken.self)
                        await log.append("handler started")
                        try await Task.sleep(for: .seconds(30))
                        return "too late"
                    }
                }
            }
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let connection = try #require(RawHTTPConnection(port: port))
                connection.send("POST /slow HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
                _ = await log.waitUntil { $0.contains("handler started") }
                connection.close()
                let events = await log.waitUntil { $0.count >= 2 }
                #expect(events == ["handler started", "dispose 1 cancelled"])
            }
            #expect(fixture.live.aliveCount == 0)
        }

        @Test("Without the middleware, resolving from the context throws instead of reaching global state")
        func missingMiddleware() async throws {
            let router = Router(context: BasicWeaveDIRequestContext.self)
            router.get("/") { _, context -> String in
                do {
                    _ = try context.resolve(RequestToken.self)
                    return "resolved"
                } catch is RequestDependenciesError {
                    return "no scope"
                }
            }
            let app = Application(router: router)
            try await app.test(.router) { client in
                try await client.execute(uri: "/", method: .get) { response in
                    #expect(String(buffer: response.body) == "no scope")
                }
            }
        }
    }
#endif
