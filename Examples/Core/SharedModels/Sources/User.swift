/// A registered customer.
public struct User: Sendable, Hashable, Codable, Identifiable {
    public let id: Int64
    public var name: String
    public var email: String
    /// Points earned by paid orders (one per whole currency unit spent).
    public var loyaltyPoints: Int

    public init(id: Int64, name: String, email: String, loyaltyPoints: Int = 0) {
        self.id = id
        self.name = name
        self.email = email
        self.loyaltyPoints = loyaltyPoints
    }
}
