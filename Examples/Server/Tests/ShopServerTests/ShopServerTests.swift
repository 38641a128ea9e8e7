import DI
import Database
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PaymentFeature
import SharedModels
import ShopHTTP
import Testing
import WeaveDI
import WeaveDIServiceLifecycle

/// A receipt printer that always fails: a payment's last step throwing after its writes.
struct BrokenReceiptPrinter: ReceiptPrinting {
    struct Jammed: Error {}
    func printReceipt(for order: Order, payment: Payment) throws -> String { throw Jammed() }
}

@Suite("ShopServer over real HTTP")
struct ShopServerTests {
    @Test("Sign up, place an order, pay (declined, then captured), read the order back")
    func shopFlow() async throws {
        let container = Container()
        try await Container.withShared(container) {
            let shop = try await TestShop.make(container: container)
            try await shop.application().test(.live) { client in
                let signUp = try await client.execute(
                    uri: "/users", method: .post,
                    body: jsonBody(#"{"name":"Ada","email":"ada@example.com"}"#))
                #expect(signUp.status == .created)
                let userID = try #require(signUp.json["id"] as? Int)
                let again = try await client.execute(
                    uri: "/users", method: .post,
                    body: jsonBody(#"{"name":"Ada","email":"ada@example.com"}"#))
                #expect(again.status == .ok)

                let order = try await client.execute(
                    uri: "/orders", method: .post,
                    body: jsonBody(
                        #"{"userID":\#(userID),"items":[{"sku":"coffee-beans","quantity":2},{"sku":"mug","quantity":1}]}"#
                    ))
                #expect(order.status == .created)
                let orderID = try #require(order.json["id"] as? Int)
                #expect(order.json["status"] as? String == "pending")

                let declined = try await client.execute(
                    uri: "/orders/\(orderID)/payments", method: .post,
                    body: jsonBody(#"{"cardNumber":"4000 0000 0000 0002"}"#))
                #expect(declined.status.code == 402)
                let captured = try await client.execute(
                    uri: "/orders/\(orderID)/payments", method: .post,
                    body: jsonBody(#"{"cardNumber":"4242 4242 4242 4242"}"#))
                #expect(captured.status == .created)
                #expect(captured.json["status"] as? String == "captured")

                let read = try await client.execute(uri: "/orders/\(orderID)", method: .get)
                #expect(read.status == .ok)
                #expect(read.json["status"] as? String == "paid")
                #expect((read.json["payments"] as? [Any])?.count == 2)
            }
        }
    }

    @Test("Errors are JSON with the proper status: malformed JSON, unknown ids, oversized bodies, wrong methods")
    func errors() async throws {
        let container = Container()
        try await Container.withShared(container) {
            let shop = try await TestShop.make(container: container)
            try await shop.application().test(.live) { client in
                func expectError(
                    _ response: TestResponse, _ status: HTTPResponse.Status,
                    sourceLocation: SourceLocation = #_sourceLocation
                ) {
                    #expect(response.status == status, sourceLocation: sourceLocation)
                    #expect(
                        response.headers[.contentType]?.hasPrefix("application/json") == true,
                        sourceLocation: sourceLocation)
                    #expect(response.json["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
                    #expect(response.json["error"] is String, sourceLocation: sourceLocation)
                }
                expectError(
                    try await client.execute(uri: "/users", method: .post, body: jsonBody("{\"name\":")), .badRequest)
                expectError(
                    try await client.execute(uri: "/users", method: .post, body: jsonBody(#"{"nom":"x"}"#)), .badRequest
                )
                expectError(try await client.execute(uri: "/orders/999", method: .get), .notFound)
                expectError(try await client.execute(uri: "/orders/abc", method: .get), .notFound)
                expectError(
                    try await client.execute(
                        uri: "/orders", method: .post,
                        body: jsonBody(#"{"userID":999,"items":[{"sku":"mug","quantity":1}]}"#)), .notFound)
                expectError(
                    try await client.execute(
                        uri: "/orders/999/payments", method: .post,
                        body: jsonBody(#"{"cardNumber":"4242 4242 4242 4242"}"#)), .notFound)
                expectError(
                    try await client.execute(
                        uri: "/users", method: .post,
                        body: jsonBody("{\"name\":\"" + String(repeating: "x", count: 100_000) + "\"}")),
                    .contentTooLarge)
                let wrongMethod = try await client.execute(uri: "/orders/1", method: .delete)
                expectError(wrongMethod, .methodNotAllowed)
                #expect(wrongMethod.headers[.allow] == "GET")
                expectError(try await client.execute(uri: "/users", method: .get), .methodNotAllowed)
                expectError(try await client.execute(uri: "/nowhere", method: .get), .notFound)
                expectError(
                    try await client.execute(
                        uri: "/users", method: .post,
                        body: jsonBody(#"{"name":"x","email":"not-an-email"}"#)), .unprocessableContent)
                // The server is still up.
                #expect(
                    try await client.execute(
                        uri: "/users", method: .post,
                        body: jsonBody(#"{"name":"Bo","email":"bo@example.com"}"#)
                    ).status == .created)
            }
        }
    }

    @Test("A request that fails after writing rolls its unit of work back: no payment row, order still pending")
    func rollback() async throws {
        let container = Container()
        try await Container.withShared(container) {
            let shop = try await TestShop.make(container: container)
            Container.receiptPrinter.register { BrokenReceiptPrinter() }
            try await shop.application().test(.live) { client in
                let user = try await client.execute(
                    uri: "/users", method: .post,
                    body: jsonBody(#"{"name":"Cy","email":"cy@example.com"}"#))
                let userID = try #require(user.json["id"] as? Int)
                let order = try await client.execute(
                    uri: "/orders", method: .post,
                    body: jsonBody(#"{"userID":\#(userID),"items":[{"sku":"mug","quantity":1}]}"#))
                let orderID = try #require(order.json["id"] as? Int)
                let pay = try await client.execute(
                    uri: "/orders/\(orderID)/payments", method: .post,
                    body: jsonBody(#"{"cardNumber":"4242 4242 4242 4242"}"#))
                #expect(pay.status == .internalServerError)
                let read = try await client.execute(uri: "/orders/\(orderID)", method: .get)
                #expect(read.json["status"] as? String == "pending")
                #expect((read.json["payments"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test("Concurrent requests each get their own unit of work, all ended")
    func concurrentUnitsOfWork() async throws {
        let container = Container()
        try await Container.withShared(container) {
            let shop = try await TestShop.make(container: container)
            let (units, continuation) = AsyncStream<ShopUnitOfWork>.makeStream()
            shop.router.get("/unit") { _, context -> String in
                let unit = try context.resolve(ShopUnitOfWork.self)
                try await Task.sleep(for: .milliseconds(5))
                #expect(try context.resolve(ShopUnitOfWork.self) === unit)
                continuation.yield(unit)
                return "\(ObjectIdentifier(unit).hashValue)"
            }
            try await shop.application().test(.live) { client in
                let port = try #require(client.port)
                let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<32 {
                        group.addTask {
                            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
                                String(buffer: try #require(try await client.get("/unit").body))
                            }
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(bodies.count == 32)
            }
            continuation.finish()
            var ended = 0
            for await unit in units {
                for _ in 0..<200 where unit.endedWith == nil { try await Task.sleep(for: .milliseconds(5)) }
                if unit.endedWith == .completed { ended += 1 }
            }
            #expect(ended == 32)
        }
    }

    @Test(
        "Graceful shutdown: the request in flight finishes, services stop in reverse dependency order, the database is closed"
    )
    func gracefulShutdown() async throws {
        let container = Container()
        try await Container.withShared(container) {
            let shop = try await TestShop.make(container: container)
            let (started, startedContinuation) = AsyncStream<Void>.makeStream()
            shop.router.get("/slow") { _, context -> String in
                _ = try context.resolve(ShopUnitOfWork.self)
                startedContinuation.yield()
                try await Task.sleep(for: .milliseconds(300))
                return "finished"
            }
            let (ports, portContinuation) = AsyncStream<Int>.makeStream()
            let app = Application(
                router: shop.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) })
            let group = try ContainerServiceGroup(
                container: container, additionalServices: [app],
                logger: Logger(label: "shop-test"))
            #expect(group.services.map(\.name) == ["ShopDatabaseService", "ShopStatsService"])
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var portIterator = ports.makeAsyncIterator()
                let port = try #require(await portIterator.next())
                tasks.addTask {
                    let response = try await TestClient.withClient(host: "127.0.0.1", port: port) {
                        try await $0.get("/slow")
                    }
                    #expect(response.status == .ok)
                    #expect(response.body.map { String(buffer: $0) } == "finished")
                }
                var startedIterator = started.makeAsyncIterator()
                _ = await startedIterator.next()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            let lines = shop.log.lines
            #expect(
                lines.first
                    == "service started: ShopDatabaseService (\(try container.resolveOrThrow(AppDatabase.self).path))")
            let stops = lines.filter { $0.hasPrefix("service stopped") }
            #expect(stops.count == 2)
            #expect(stops.first?.hasPrefix("service stopped: ShopStatsService") == true)
            #expect(stops.last == "service stopped: ShopDatabaseService (database closed)")
        }
    }
}
