import GRDB
import SharedModels

// Rows as GRDB records. They stay inside this module: the rest of the app sees SharedModels types.

struct UserRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "users"
    var id: Int64?
    var name: String
    var email: String
    var loyaltyPoints: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    var model: User { User(id: id ?? 0, name: name, email: email, loyaltyPoints: loyaltyPoints) }
}

struct OrderRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "orders"
    var id: Int64?
    var userId: Int64
    var lines: [OrderLine] // stored as JSON text
    var totalCents: Int
    var status: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func model() throws -> Order {
        guard let status = OrderStatus(rawValue: status) else {
            throw DatabaseError(message: "orders.status holds an unknown value '\(status)'")
        }
        return Order(id: id ?? 0, userID: userId, lines: lines, status: status)
    }
}

struct PaymentRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "payments"
    var id: Int64?
    var orderId: Int64
    var amountCents: Int
    var cardLast4: String
    var status: String
    var reference: String?
    var declineReason: String?

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    func model() throws -> Payment {
        guard let status = PaymentStatus(rawValue: status) else {
            throw DatabaseError(message: "payments.status holds an unknown value '\(status)'")
        }
        return Payment(
            id: id ?? 0, orderID: orderId, amountCents: amountCents, cardLast4: cardLast4,
            status: status, reference: reference, declineReason: declineReason)
    }
}
