import Database
import Foundation

/// Where the app runs; each environment gets its own module factories.
public enum AppEnvironment: String, Sendable, CaseIterable, CustomStringConvertible {
    /// A database file on disk, warnings logged, slow resolutions reported.
    case development
    /// A temporary database deleted when the container goes away; nothing logged.
    case testing
    /// A database file on disk, errors logged.
    case production

    public var description: String { rawValue }
}

/// What the app was started with.
public struct AppConfiguration: Sendable {
    public var environment: AppEnvironment
    /// The SQLite file (ignored by `.testing`, which uses a temporary one).
    public var databasePath: String

    public init(environment: AppEnvironment, databasePath: String = AppDatabase.defaultPath) {
        self.environment = environment
        self.databasePath = databasePath
    }

    /// Where receipts are written: a `receipts` folder beside the database file, or `nil` under
    /// `.testing`, whose database is temporary.
    public var receiptsDirectory: URL? {
        guard environment != .testing else { return nil }
        return URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("receipts")
    }
}
