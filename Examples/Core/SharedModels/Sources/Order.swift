/// One line of an order: a catalog item, how many, and the unit price quoted when it was ordered.
public struct OrderLine: Sendable, Hashable, Codable {
    public let sku: String
    public let quantity: Int
    public let unitPriceCents: Int

    public init(sku: String, quantity: Int, unitPriceCents: Int) {
        self.sku = sku
        self.quantity = quantity
        self.unitPriceCents = unitPriceCents
    }

    /// `quantity × unitPriceCents`.
    public var totalCents: Int { quantity * unitPriceCents }
}

/// Where an order is in its life.
public enum OrderStatus: String, Sendable, Codable, CaseIterable {
    case pending
    case paid
    case cancelled
}

/// A customer's order.
public struct Order: Sendable, Hashable, Codable, Identifiable {
    public let id: Int64
    public let userID: Int64
    public let lines: [OrderLine]
    public var status: OrderStatus

    public init(id: Int64, userID: Int64, lines: [OrderLine], status: OrderStatus) {
        self.id = id
        self.userID = userID
        self.lines = lines
        self.status = status
    }

    /// The sum of the lines.
    public var totalCents: Int { lines.reduce(0) { $0 + $1.totalCents } }
}
