import Networking
import SharedModels
import WeaveDI

/// The order feature's implementation. The API client comes from `InjectedValues` (so a test
/// overrides it with `withInjectedValues`); the rest is handed in by the container.
struct OrderServiceImpl: OrderService, OrderLookup {
    let orders: any OrderRepository
    let users: any UserDirectory
    let events: any EventBus
    @Injected(\.apiClient) var apiClient

    func placeOrder(userID: Int64, items: [OrderItem]) async throws -> Order {
        guard !items.isEmpty else { throw OrderFeatureError.emptyOrder }
        if let bad = items.first(where: { $0.quantity <= 0 }) {
            throw OrderFeatureError.invalidQuantity(sku: bad.sku, quantity: bad.quantity)
        }
        guard try users.user(id: userID) != nil else { throw OrderFeatureError.unknownUser(userID) }
        var lines: [OrderLine] = []
        for item in items {
            let quote: PriceQuote = try await apiClient.request(.price(sku: item.sku))
            lines.append(OrderLine(sku: item.sku, quantity: item.quantity, unitPriceCents: quote.unitPriceCents))
        }
        let order = try orders.insert(userID: userID, lines: lines)
        try events.publish(OrderPlaced(orderID: order.id, userID: userID, totalCents: order.totalCents))
        return order
    }

    func order(id: Int64) throws -> Order? {
        try orders.order(id: id)
    }
}
