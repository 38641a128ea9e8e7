import SharedModels

/// Awards one loyalty point per whole currency unit of every paid order. It listens for
/// ``OrderPaid``, which the order feature publishes; the two features never import each other.
struct LoyaltyProgram: Sendable {
    let users: any UserRepository

    static func points(forCents cents: Int) -> Int { max(0, cents / 100) }

    func handle(_ event: OrderPaid) throws {
        _ = try users.addLoyaltyPoints(Self.points(forCents: event.totalCents), to: event.userID)
    }
}
