import Foundation
import GRDB
import SharedModels

/// The shop's SQLite database: opened (created and migrated on first use) at a path, or as a
/// temporary file for tests.
///
/// Thread-safe: every read and write goes through GRDB's serialized `DatabaseQueue`.
public final class AppDatabase: Sendable {
    /// Where the database file is.
    public let path: String
    let queue: DatabaseQueue
    /// A directory to delete when this value goes away (temporary databases only).
    private let temporaryDirectory: URL?

    private init(path: String, queue: DatabaseQueue, temporaryDirectory: URL?) {
        self.path = path
        self.queue = queue
        self.temporaryDirectory = temporaryDirectory
    }

    deinit {
        guard let temporaryDirectory else { return }
        try? queue.close()
        try? FileManager.default.removeItem(at: temporaryDirectory)
    }

    /// The default location: `.weavedi-example/shop.sqlite` under the current directory.
    public static var defaultPath: String {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".weavedi-example")
            .appendingPathComponent("shop.sqlite").path
    }

    /// Opens the database at `path`, creating its directory and file if needed, and applies the
    /// migrations it has not seen yet.
    public static func open(at path: String) throws -> AppDatabase {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration())
        try migrator.migrate(queue)
        return AppDatabase(path: url.path, queue: queue, temporaryDirectory: nil)
    }

    /// A new, migrated database in a fresh temporary directory, deleted when the returned value is
    /// released. Each call gets its own file, so tests using it can run in parallel.
    public static func temporary() throws -> AppDatabase {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("weavedi-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("shop.sqlite").path
        let queue = try DatabaseQueue(path: path, configuration: configuration())
        try migrator.migrate(queue)
        return AppDatabase(path: path, queue: queue, temporaryDirectory: directory)
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.label = "WeaveDIExample"
        return configuration
    }

    /// The schema, one migration per change; GRDB records which ones a file has seen.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users and orders") { db in
            try db.create(table: "users") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("email", .text).notNull().unique()
                t.column("loyaltyPoints", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "orders") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("user", inTable: "users").notNull()
                t.column("lines", .jsonText).notNull()
                t.column("totalCents", .integer).notNull()
                t.column("status", .text).notNull()
            }
        }
        migrator.registerMigration("v2: payments") { db in
            try db.create(table: "payments") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("order", inTable: "orders").notNull()
                t.column("amountCents", .integer).notNull()
                t.column("cardLast4", .text).notNull()
                t.column("status", .text).notNull()
                t.column("reference", .text)
                t.column("declineReason", .text)
            }
        }
        return migrator
    }

    /// Every migration the app knows, in order.
    public static var migrationNames: [String] { migrator.migrations }

    /// The migrations applied to this file, in order.
    public func appliedMigrations() throws -> [String] {
        try queue.read { try AppDatabase.migrator.appliedMigrations($0) }
    }

    /// Row counts per table.
    public func rowCounts() throws -> (users: Int, orders: Int, payments: Int) {
        try queue.read { db in
            (try UserRecord.fetchCount(db), try OrderRecord.fetchCount(db), try PaymentRecord.fetchCount(db))
        }
    }
}
