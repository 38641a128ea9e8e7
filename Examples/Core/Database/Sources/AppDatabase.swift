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
        let (url, queue) = try openQueue(at: path)
        try migrator.migrate(queue)
        return AppDatabase(path: url.path, queue: queue, temporaryDirectory: nil)
    }

    /// ``open(at:)`` for async callers: the migrations run on GRDB's writer queue while the
    /// calling task is suspended, so no thread of the cooperative pool waits for the disk.
    public static func open(at path: String) async throws -> AppDatabase {
        let (url, queue) = try openQueue(at: path)
        try await migrate(queue)
        return AppDatabase(path: url.path, queue: queue, temporaryDirectory: nil)
    }

    /// A new, migrated database in a fresh temporary directory, deleted when the returned value is
    /// released. Each call gets its own file, so tests using it can run in parallel.
    public static func temporary() throws -> AppDatabase {
        let (directory, path) = try temporaryLocation()
        let (_, queue) = try openQueue(at: path)
        try migrator.migrate(queue)
        return AppDatabase(path: path, queue: queue, temporaryDirectory: directory)
    }

    /// ``temporary()`` for async callers, migrated like the async `open(at:)`.
    public static func temporary() async throws -> AppDatabase {
        let (directory, path) = try temporaryLocation()
        let database: AppDatabase
        do {
            let (_, queue) = try openQueue(at: path)
            try await migrate(queue)
            database = AppDatabase(path: path, queue: queue, temporaryDirectory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        return database
    }

    private static func temporaryLocation() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("weavedi-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("shop.sqlite").path)
    }

    /// Creates the file's directory and opens a connection (the migrations are the slow part).
    private static func openQueue(at path: String) throws -> (URL, DatabaseQueue) {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return (url, try DatabaseQueue(path: url.path, configuration: configuration()))
    }

    /// Applies the missing migrations on the queue's writer, resuming the caller when they are done.
    private static func migrate(_ queue: DatabaseQueue) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            migrator.asyncMigrate(queue) { result in
                continuation.resume(with: result.map { _ in () })
            }
        }
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
