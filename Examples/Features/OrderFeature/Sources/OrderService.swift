import SharedModels

/// One item to order: a catalog SKU and how many.
public struct OrderItem: Sendable, Hashable {
    public let sku: String
    public let quantity: Int

    public init(sku: String, quantity: Int) {
        self.sku = sku
        self.quantity = quantity
    }
}

/// What the order feature offers the app.
public protocol OrderService: Sendable {
    /// Prices `items` with the catalog, stores a pending order for `userID` and announces
    /// ``OrderPlaced``.
    func placeOrder(userID: Int64, items: [OrderItem]) async throws -> Order

    /// The order with `id`, if any.
    func order(id: Int64) throws -> Order?
}

/// Why the order feature refused.
public enum OrderFeatureError: Error, Equatable, CustomStringConvertible {
    case unknownUser(Int64)
    case emptyOrder
    case invalidQuantity(sku: String, quantity: Int)

    public var description: String {
        switch self {
        case .unknownUser(let id): return "No user with id \(id) can order."
        case .emptyOrder: return "An order needs at least one item."
        case .invalidQuantity(let sku, let quantity): return "Quantity \(quantity) of \(sku) is not positive."
        }
    }
}
