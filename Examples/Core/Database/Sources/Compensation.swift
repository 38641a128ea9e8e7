import GRDB

/// One write undone: what a request-scoped unit of work replays, newest first, when its request
/// fails or is cancelled (see `AppDatabase.compensate(_:)`).
public enum Compensation: Sendable, Hashable {
    /// Deletes the user a request inserted.
    case deleteUser(id: Int64)
    /// Deletes the order a request inserted.
    case deleteOrder(id: Int64)
    /// Deletes the payment a request inserted.
    case deletePayment(id: Int64)
    /// Puts an order's status back to what it was before the request changed it.
    case restoreOrderStatus(orderID: Int64, status: String)
    /// Takes back loyalty points a request added.
    case removeLoyaltyPoints(userID: Int64, points: Int)
}

extension AppDatabase {
    /// Applies `steps` in the order given, in one transaction: all of them or none.
    public func compensate(_ steps: [Compensation]) throws {
        guard !steps.isEmpty else { return }
        try queue.write { db in
            for step in steps {
                switch step {
                case .deleteUser(let id):
                    _ = try UserRecord.deleteOne(db, key: id)
                case .deleteOrder(let id):
                    _ = try OrderRecord.deleteOne(db, key: id)
                case .deletePayment(let id):
                    _ = try PaymentRecord.deleteOne(db, key: id)
                case .restoreOrderStatus(let orderID, let status):
                    try db.execute(sql: "UPDATE orders SET status = ? WHERE id = ?", arguments: [status, orderID])
                case .removeLoyaltyPoints(let userID, let points):
                    try db.execute(
                        sql: "UPDATE users SET loyaltyPoints = loyaltyPoints - ? WHERE id = ?",
                        arguments: [points, userID])
                }
            }
        }
    }

    /// Closes the database connection; later reads and writes throw. Closing twice is harmless.
    public func close() throws {
        try queue.close()
    }
}
