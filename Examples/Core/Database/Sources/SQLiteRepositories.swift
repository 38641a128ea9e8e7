import GRDB
import SharedModels

/// ``UserRepository`` on the SQLite database.
public struct SQLiteUserRepository: UserRepository {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func insert(name: String, email: String) throws -> User {
        do {
            return try database.queue.write { db in
                var record = UserRecord(id: nil, name: name, email: email, loyaltyPoints: 0)
                try record.insert(db)
                return record.model
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.emailTaken(email)
        }
    }

    public func user(id: Int64) throws -> User? {
        try database.queue.read { try UserRecord.fetchOne($0, key: id)?.model }
    }

    public func user(email: String) throws -> User? {
        try database.queue.read { try UserRecord.filter(Column("email") == email).fetchOne($0)?.model }
    }

    public func addLoyaltyPoints(_ points: Int, to userID: Int64) throws -> User {
        try database.queue.write { db in
            guard var record = try UserRecord.fetchOne(db, key: userID) else {
                throw StorageError.notFound(entity: "user", id: userID)
            }
            record.loyaltyPoints += points
            try record.update(db)
            return record.model
        }
    }

    public func count() throws -> Int {
        try database.queue.read { try UserRecord.fetchCount($0) }
    }
}

/// ``OrderRepository`` on the SQLite database.
public struct SQLiteOrderRepository: OrderRepository {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func insert(userID: Int64, lines: [OrderLine]) throws -> Order {
        try database.queue.write { db in
            var record = OrderRecord(
                id: nil, userId: userID, lines: lines,
                totalCents: lines.reduce(0) { $0 + $1.totalCents },
                status: OrderStatus.pending.rawValue)
            try record.insert(db)
            return try record.model()
        }
    }

    public func order(id: Int64) throws -> Order? {
        try database.queue.read { try OrderRecord.fetchOne($0, key: id)?.model() }
    }

    public func orders(userID: Int64) throws -> [Order] {
        try database.queue.read { db in
            try OrderRecord.filter(Column("userId") == userID).order(Column("id")).fetchAll(db).map { try $0.model() }
        }
    }

    public func updateStatus(orderID: Int64, to status: OrderStatus) throws -> Order {
        try database.queue.write { db in
            guard var record = try OrderRecord.fetchOne(db, key: orderID) else {
                throw StorageError.notFound(entity: "order", id: orderID)
            }
            record.status = status.rawValue
            try record.update(db)
            return try record.model()
        }
    }
}

/// ``PaymentRepository`` on the SQLite database.
public struct SQLitePaymentRepository: PaymentRepository {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func insert(
        orderID: Int64, amountCents: Int, cardLast4: String, status: PaymentStatus,
        reference: String?, declineReason: String?
    ) throws -> Payment {
        try database.queue.write { db in
            var record = PaymentRecord(
                id: nil, orderId: orderID, amountCents: amountCents, cardLast4: cardLast4,
                status: status.rawValue, reference: reference, declineReason: declineReason)
            try record.insert(db)
            return try record.model()
        }
    }

    public func payments(orderID: Int64) throws -> [Payment] {
        try database.queue.read { db in
            try PaymentRecord.filter(Column("orderId") == orderID).order(Column("id")).fetchAll(db).map {
                try $0.model()
            }
        }
    }
}
