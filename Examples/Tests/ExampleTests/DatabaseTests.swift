import Database
import Foundation
import SharedModels
import Testing

/// The SQLite layer on its own: migrations, the temporary-database helper, the repositories.
struct DatabaseTests {
    @Test func aTemporaryDatabaseIsMigratedAndDeletedWhenReleased() throws {
        var database: AppDatabase? = try AppDatabase.temporary()
        let path = try #require(database?.path)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try database?.appliedMigrations() == ["v1: users and orders", "v2: payments"])

        database = nil

        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func reopeningAFileKeepsItsRowsAndMigrations() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "weavedi-reopen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/shop.sqlite").path

        do {
            let database = try AppDatabase.open(at: path)
            _ = try SQLiteUserRepository(database: database).insert(name: "Ada", email: "ada@example.com")
        }
        let reopened = try AppDatabase.open(at: path)

        #expect(try SQLiteUserRepository(database: reopened).user(email: "ada@example.com")?.name == "Ada")
        #expect(try reopened.appliedMigrations().count == 2)
    }

    @Test func emailsAreUnique() throws {
        let users = SQLiteUserRepository(database: try AppDatabase.temporary())
        _ = try users.insert(name: "Ada", email: "ada@example.com")
        #expect(throws: StorageError.emailTaken("ada@example.com")) {
            _ = try users.insert(name: "Another Ada", email: "ada@example.com")
        }
        #expect(try users.count() == 1)
    }

    @Test func ordersKeepTheirLinesAndStatus() throws {
        let database = try AppDatabase.temporary()
        let user = try SQLiteUserRepository(database: database).insert(name: "Ada", email: "ada@example.com")
        let orders = SQLiteOrderRepository(database: database)
        let lines = [
            OrderLine(sku: "mug", quantity: 2, unitPriceCents: 1_200),
            OrderLine(sku: "tea", quantity: 1, unitPriceCents: 300),
        ]

        let order = try orders.insert(userID: user.id, lines: lines)
        _ = try orders.updateStatus(orderID: order.id, to: .paid)

        let stored = try #require(try orders.order(id: order.id))
        #expect(stored.lines == lines)
        #expect(stored.totalCents == 2_700)
        #expect(stored.status == .paid)
        #expect(try orders.orders(userID: user.id).map(\.id) == [order.id])
        #expect(throws: StorageError.notFound(entity: "order", id: 99)) {
            _ = try orders.updateStatus(orderID: 99, to: .paid)
        }
    }

    @Test func anOrderNeedsAnExistingUser() throws {
        let orders = SQLiteOrderRepository(database: try AppDatabase.temporary())
        // Foreign keys are on: SQLite itself refuses the row.
        #expect(throws: (any Error).self) {
            _ = try orders.insert(userID: 12, lines: [OrderLine(sku: "mug", quantity: 1, unitPriceCents: 1)])
        }
    }

    @Test func paymentsAreListedPerOrder() throws {
        let database = try AppDatabase.temporary()
        let user = try SQLiteUserRepository(database: database).insert(name: "Ada", email: "ada@example.com")
        let order = try SQLiteOrderRepository(database: database).insert(
            userID: user.id, lines: [OrderLine(sku: "mug", quantity: 1, unitPriceCents: 1_200)])
        let payments = SQLitePaymentRepository(database: database)

        _ = try payments.insert(
            orderID: order.id, amountCents: 1_200, cardLast4: "0002", status: .declined,
            reference: nil, declineReason: "card declined")
        _ = try payments.insert(
            orderID: order.id, amountCents: 1_200, cardLast4: "4242", status: .captured,
            reference: "AUTH", declineReason: nil)

        let stored = try payments.payments(orderID: order.id)
        #expect(stored.map(\.status) == [.declined, .captured])
        #expect(stored.last?.reference == "AUTH")
        #expect(try database.rowCounts().payments == 2)
    }
}
