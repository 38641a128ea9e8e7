import Foundation

/// Where WeaveDI's log messages go instead of swift-log while a capture is bound: the test support
/// binds one per test (task-locally, and on the threads a test starts), so a test that provokes a
/// failure on purpose reads what was logged instead of printing it, and parallel tests never see
/// each other's messages.
///
/// The level (``UnifiedDI/setLogLevel(_:)``) still decides what is logged; a capture only changes
/// where it goes.
package final class LogCapture: Sendable {
    /// How serious a captured message is (the swift-log level WeaveDI would have used).
    package enum Severity: Int, Sendable, Comparable {
        case info, warning, error

        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One captured message.
    package struct Entry: Sendable, CustomStringConvertible {
        package let severity: Severity
        package let message: String

        package var description: String { "\(severity) \(message)" }
    }

    /// The capture messages logged in this task (or on this thread) go to, if any.
    @TaskLocal package static var current: LogCapture?

    private let storage = Locked<[Entry]>([])

    package init() {}

    /// Every message captured so far, oldest first.
    package var entries: [Entry] { storage.withLock { $0 } }

    /// The messages of `severity` or more serious.
    package func entries(atLeast severity: Severity) -> [Entry] {
        entries.filter { $0.severity >= severity }
    }

    /// Forgets what was captured.
    package func removeAll() { storage.withLock { $0.removeAll() } }

    func append(_ severity: Severity, _ message: String) {
        storage.withLock { $0.append(Entry(severity: severity, message: message)) }
    }
}
