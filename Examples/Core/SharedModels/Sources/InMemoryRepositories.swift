import Foundation

// Thread-safe in-memory implementations of the storage protocols: the fallback a feature uses when
// no database is wired (see `makeUseCaseWithRepository`), and a fast double for unit tests.

/// Users kept in memory.
public final class InMemoryUserRepository: UserRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var users: [Int64: User] = [:] // guarded by `lock`
    private var nextID: Int64 = 1

    public init() {}

    public func insert(name: String, email: String) throws -> User {
        try lock.withLock {
            if users.values.contains(where: { $0.email == email }) { throw StorageError.emailTaken(email) }
            let user = User(id: nextID, name: name, email: email)
            users[nextID] = user
            nextID += 1
            return user
        }
    }

    public func user(id: Int64) throws -> User? { lock.withLock { users[id] } }

    public func user(email: String) throws -> User? {
        lock.withLock { users.values.first { $0.email == email } }
    }

    public func addLoyaltyPoints(_ points: Int, to userID: Int64) throws -> User {
        try lock.withLock {
            guard var user = users[userID] else { throw StorageError.notFound(entity: "user", id: userID) }
            user.loyaltyPoints += points
            users[userID] = user
            return user
        }
    }

    public func count() throws -> Int { lock.withLock { users.count } }
}

/// Orders kept in memory.
public final class InMemoryOrderRepository: OrderRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var orders: [Int64: Order] = [:] // guarded by `lock`
    private var nextID: Int64 = 1

    public init() {}

    public func insert(userID: Int64, lines: [OrderLine]) throws -> Order {
        lock.withLock {
            let order = Order(id: nextID, userID: userID, lines: lines, status: .pending)
            orders[nextID] = order
            nextID += 1
            return order
        }
    }

    public func order(id: Int64) throws -> Order? { lock.withLock { orders[id] } }

    public func orders(userID: Int64) throws -> [Order] {
        lock.withLock { orders.values.filter { $0.userID == userID }.sorted { $0.id < $1.id } }
    }

    public func updateStatus(orderID: Int64, to status: OrderStatus) throws -> Order {
        try lock.withLock {
            guard var order = orders[orderID] else { throw StorageError.notFound(entity: "order", id: orderID) }
            order.status = status
            orders[orderID] = order
            return order
        }
    }
}

/// Payments kept in memory.
public final class InMemoryPaymentRepository: PaymentRepository, @unchecked Sendable {
    private let lock = NSLock()
    private var payments: [Payment] = [] // guarded by `lock`

    public init() {}

    public func insert(
        orderID: Int64, amountCents: Int, cardLast4: String, status: PaymentStatus,
        reference: String?, declineReason: String?
    ) throws -> Payment {
        lock.withLock {
            let payment = Payment(
                id: Int64(payments.count + 1), orderID: orderID, amountCents: amountCents,
                cardLast4: cardLast4, status: status, reference: reference,
                declineReason: declineReason)
            payments.append(payment)
            return payment
        }
    }

    public func payments(orderID: Int64) throws -> [Payment] {
        lock.withLock { payments.filter { $0.orderID == orderID } }
    }
}
