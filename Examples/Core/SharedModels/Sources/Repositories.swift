// Storage protocols. Features depend on these; the Database module implements them; the DI module
// decides which implementation each environment gets.

/// Stores users.
public protocol UserRepository: Sendable {
    /// Inserts a user; throws if the email is already taken.
    func insert(name: String, email: String) throws -> User
    func user(id: Int64) throws -> User?
    func user(email: String) throws -> User?
    /// Adds `points` to the user's loyalty points and returns the updated user.
    func addLoyaltyPoints(_ points: Int, to userID: Int64) throws -> User
    func count() throws -> Int
}

/// Stores orders and their lines.
public protocol OrderRepository: Sendable {
    /// Inserts a pending order.
    func insert(userID: Int64, lines: [OrderLine]) throws -> Order
    func order(id: Int64) throws -> Order?
    func orders(userID: Int64) throws -> [Order]
    /// Sets the order's status and returns the updated order.
    func updateStatus(orderID: Int64, to status: OrderStatus) throws -> Order
}

/// Stores payment attempts.
public protocol PaymentRepository: Sendable {
    func insert(
        orderID: Int64, amountCents: Int, cardLast4: String, status: PaymentStatus,
        reference: String?, declineReason: String?
    ) throws -> Payment
    func payments(orderID: Int64) throws -> [Payment]
}
