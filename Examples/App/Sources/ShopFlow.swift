import OrderFeature
import PaymentFeature
import SharedModels
import UserFeature
import WeaveDI

/// The walk through the shop: sign up, order, pay. The services come from the container through
/// property wrappers; a missing one stops the app with a message naming it.
struct ShopFlow {
    @RequiredInject var users: any UserService
    @RequiredInject var orders: any OrderService
    @RequiredInject var payments: any PaymentService

    func signUp() throws -> (user: User, isNew: Bool) {
        try users.signUp(name: "Ada Lovelace", email: "ada@example.com")
    }

    func order(for user: User) async throws -> Order {
        try await orders.placeOrder(
            userID: user.id,
            items: [
                OrderItem(sku: "coffee-beans", quantity: 2),
                OrderItem(sku: "mug", quantity: 1),
            ])
    }

    /// Pays with a card the gateway declines, then with one it accepts.
    func pay(_ order: Order) async throws -> (declined: PaymentOutcome, captured: PaymentOutcome) {
        let declined = try await payments.pay(orderID: order.id, cardNumber: "4000 0000 0000 0002")
        let captured = try await payments.pay(orderID: order.id, cardNumber: "4242 4242 4242 4242")
        return (declined, captured)
    }

    /// The order and user as the database has them now, after the events have run.
    func reload(_ order: Order, _ user: User) throws -> (order: Order?, user: User?) {
        (try orders.order(id: order.id), try users.user(id: user.id))
    }
}
