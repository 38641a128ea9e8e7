import DI
import Database
import Networking
import OrderFeature
import PaymentFeature
import SharedModels
import Testing
import UserFeature
import WeaveDI
import WeaveDITesting

/// The user → order → payment flow across every module, on a temporary database. Each test gets
/// its own container (`.container`), so they run in parallel without seeing each other's wiring,
/// database or events.
@Suite(.container)
struct ShopFlowIntegrationTests {
    @Test func signUpOrderAndPayUpdateEveryFeature() async throws {
        let app = try await TestApp.bootstrap()
        #expect(app.summary.features == ["UserFeature", "OrderFeature", "PaymentFeature"])
        #expect(app.summary.migrations == ["v1: users and orders", "v2: payments"])

        let users = try app.resolve(UserService.self)
        let orders = try app.resolve(OrderService.self)
        let payments = try app.resolve(PaymentService.self)

        let (user, isNew) = try users.signUp(name: "Grace", email: "grace@example.com")
        #expect(isNew)
        let order = try await orders.placeOrder(userID: user.id, items: [OrderItem(sku: "grinder", quantity: 1)])
        #expect(order.status == .pending)
        #expect(order.totalCents == 8_900)

        let outcome = try await payments.pay(orderID: order.id, cardNumber: "4242424242424242")
        #expect(outcome.payment.status == .captured)
        #expect(outcome.receipt == nil) // the testing environment has no receipt printer

        // The events crossed the feature boundaries: the order feature marked the order paid and
        // the user feature awarded points.
        #expect(try orders.order(id: order.id)?.status == .paid)
        #expect(try users.user(id: user.id)?.loyaltyPoints == 89)
        #expect(try app.journal == ["UserRegistered", "OrderPlaced", "PaymentCaptured", "OrderPaid"])

        let counts = try await app.database().rowCounts()
        #expect(counts.users == 1 && counts.orders == 1 && counts.payments == 1)
    }

    @Test func aDeclinedPaymentIsStoredAndLeavesTheOrderPending() async throws {
        let app = try await TestApp.bootstrap()
        let user = try app.resolve(UserService.self).signUp(name: "Alan", email: "alan@example.com").user
        let order = try await app.resolve(OrderService.self).placeOrder(
            userID: user.id, items: [OrderItem(sku: "mug", quantity: 1)])

        let outcome = try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "4000000000000002")

        #expect(outcome.payment.status == .declined)
        #expect(outcome.payment.declineReason == "card declined")
        #expect(try app.resolve(OrderService.self).order(id: order.id)?.status == .pending)
        #expect(try app.resolve(PaymentRepository.self).payments(orderID: order.id).map(\.status) == [.declined])
        #expect(try app.journal == ["UserRegistered", "OrderPlaced"])
    }

    /// The Multi-Module Projects guide's testing section: swap the API client for one block of code with
    /// `withInjectedValues`; the features read it through `@Injected(\.apiClient)`.
    @Test func withInjectedValuesSwapsTheBackendForOneBlock() async throws {
        let app = try await TestApp.bootstrap()
        let user = try app.resolve(UserService.self).signUp(name: "Barbara", email: "barbara@example.com").user
        let mock = MockAPIClient(responses: [
            "GET /catalog/items/tea": PriceQuote(sku: "tea", name: "Tea", unitPriceCents: 300),
            "POST /payments/authorize": PaymentAuthorization(approved: true, reference: "MOCK-1", declineReason: nil),
        ])

        let outcome = try await withInjectedValues { values in
            values.apiClient = mock
        } operation: {
            let order = try await app.resolve(OrderService.self).placeOrder(
                userID: user.id, items: [OrderItem(sku: "tea", quantity: 3)])
            #expect(order.totalCents == 900)
            return try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "4242")
        }

        #expect(outcome.payment.reference == "MOCK-1")
        #expect(mock.sentRequests == ["GET /catalog/items/tea", "POST /payments/authorize"])
        // Outside the block the default (test) client is back: "tea" is not in its catalog.
        await #expect(throws: APIError.self) {
            _ = try await app.resolve(OrderService.self).placeOrder(
                userID: user.id, items: [OrderItem(sku: "tea", quantity: 1)])
        }
    }

    @Test func aStricterGatewayDeclinesLargePayments() async throws {
        let app = try await TestApp.bootstrap()
        let user = try app.resolve(UserService.self).signUp(name: "Edsger", email: "edsger@example.com").user
        var strict = ShopBackend.standard
        strict.spendingLimitCents = 5_000

        let outcome = try await withInjectedValues {
            $0.apiClient = InProcessAPIClient(backend: strict)
        } operation: {
            let order = try await app.resolve(OrderService.self).placeOrder(
                userID: user.id, items: [OrderItem(sku: "grinder", quantity: 1)])
            return try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "4242")
        }

        #expect(outcome.payment.status == .declined)
        #expect(outcome.payment.declineReason == "over the spending limit")
        #expect(try app.resolve(UserService.self).user(id: user.id)?.loyaltyPoints == 0)
    }

    @Test func anUnknownItemStoresNoOrder() async throws {
        let app = try await TestApp.bootstrap()
        let user = try app.resolve(UserService.self).signUp(name: "Ken", email: "ken@example.com").user

        await #expect(
            throws: APIError.status(404, message: "no catalog item 'teapot'", endpoint: "GET /catalog/items/teapot")
        ) {
            _ = try await app.resolve(OrderService.self).placeOrder(
                userID: user.id, items: [OrderItem(sku: "teapot", quantity: 1)])
        }
        #expect(try await app.database().rowCounts().orders == 0)
        #expect(try app.journal == ["UserRegistered"])
    }

    @Test func featuresRefuseBadInput() async throws {
        let app = try await TestApp.bootstrap()
        #expect(throws: UserFeatureError.invalidEmail("nobody")) {
            _ = try app.resolve(UserService.self).signUp(name: "Nobody", email: "nobody")
        }
        await #expect(throws: OrderFeatureError.unknownUser(42)) {
            _ = try await app.resolve(OrderService.self).placeOrder(
                userID: 42, items: [OrderItem(sku: "mug", quantity: 1)])
        }
        await #expect(throws: PaymentFeatureError.unknownOrder(7)) {
            _ = try await app.resolve(PaymentService.self).pay(orderID: 7, cardNumber: "4242")
        }
    }

    @Test func aPaidOrderCannotBePaidAgain() async throws {
        let app = try await TestApp.bootstrap()
        let user = try app.resolve(UserService.self).signUp(name: "Linus", email: "linus@example.com").user
        let order = try await app.resolve(OrderService.self).placeOrder(
            userID: user.id, items: [OrderItem(sku: "mug", quantity: 2)])
        _ = try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "4242")

        await #expect(throws: PaymentFeatureError.notPayable(orderID: order.id, status: .paid)) {
            _ = try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "4242")
        }
    }

    @Test func signingUpTwiceReturnsTheSameUser() async throws {
        let app = try await TestApp.bootstrap()
        let users = try app.resolve(UserService.self)
        let first = try users.signUp(name: "Ada", email: "ada@example.com")
        let second = try users.signUp(name: "Ada L.", email: "ada@example.com")
        #expect(first.isNew && !second.isNew)
        #expect(first.user.id == second.user.id)
        #expect(try app.journal == ["UserRegistered"])
    }

    /// Several apps side by side in one process, each in its own container with its own database:
    /// nothing leaks between them.
    @Test func appsInSeparateContainersStayApart() async throws {
        try await withThrowingTaskGroup(of: (Int64, Int).self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await WeaveDI.Container.withShared(WeaveDI.Container()) {
                        let app = try await TestApp.bootstrap()
                        let user = try app.resolve(UserService.self).signUp(
                            name: "User \(index)", email: "u\(index)@example.com"
                        ).user
                        let order = try await app.resolve(OrderService.self).placeOrder(
                            userID: user.id, items: [OrderItem(sku: "mug", quantity: index + 1)])
                        return (order.id, try await app.database().rowCounts().users)
                    }
                }
            }
            for try await (orderID, userCount) in group {
                #expect(orderID == 1)
                #expect(userCount == 1)
            }
        }
    }
}
