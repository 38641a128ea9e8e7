import Database
import SharedModels

/// The SQLite ``UserRepository`` recording each write in the request's ``ShopUnitOfWork``.
struct UnitOfWorkUserRepository: UserRepository {
    let base: SQLiteUserRepository
    let unitOfWork: ShopUnitOfWork

    func insert(name: String, email: String) throws -> User {
        let user = try base.insert(name: name, email: email)
        unitOfWork.recordUndo(.deleteUser(id: user.id))
        return user
    }

    func user(id: Int64) throws -> User? { try base.user(id: id) }
    func user(email: String) throws -> User? { try base.user(email: email) }

    func addLoyaltyPoints(_ points: Int, to userID: Int64) throws -> User {
        let user = try base.addLoyaltyPoints(points, to: userID)
        unitOfWork.recordUndo(.removeLoyaltyPoints(userID: userID, points: points))
        return user
    }

    func count() throws -> Int { try base.count() }
}

/// The SQLite ``OrderRepository`` recording each write in the request's ``ShopUnitOfWork``.
struct UnitOfWorkOrderRepository: OrderRepository {
    let base: SQLiteOrderRepository
    let unitOfWork: ShopUnitOfWork

    func insert(userID: Int64, lines: [OrderLine]) throws -> Order {
        let order = try base.insert(userID: userID, lines: lines)
        unitOfWork.recordUndo(.deleteOrder(id: order.id))
        return order
    }

    func order(id: Int64) throws -> Order? { try base.order(id: id) }
    func orders(userID: Int64) throws -> [Order] { try base.orders(userID: userID) }

    func updateStatus(orderID: Int64, to status: OrderStatus) throws -> Order {
        let before = try base.order(id: orderID)
        let order = try base.updateStatus(orderID: orderID, to: status)
        if let before { unitOfWork.recordUndo(.restoreOrderStatus(orderID: orderID, status: before.status.rawValue)) }
        return order
    }
}

/// The SQLite ``PaymentRepository`` recording each write in the request's ``ShopUnitOfWork``.
struct UnitOfWorkPaymentRepository: PaymentRepository {
    let base: SQLitePaymentRepository
    let unitOfWork: ShopUnitOfWork

    func insert(
        orderID: Int64, amountCents: Int, cardLast4: String, status: PaymentStatus,
        reference: String?, declineReason: String?
    ) throws -> Payment {
        let payment = try base.insert(
            orderID: orderID, amountCents: amountCents, cardLast4: cardLast4,
            status: status, reference: reference, declineReason: declineReason)
        unitOfWork.recordUndo(.deletePayment(id: payment.id))
        return payment
    }

    func payments(orderID: Int64) throws -> [Payment] { try base.payments(orderID: orderID) }
}
