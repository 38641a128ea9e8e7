import DI
import Foundation
import SharedModels
import WeaveDI

/// Runs the example: bootstrap, the shop flow, then what WeaveDI knows about the wiring.
enum ShopApp {
    /// Runs the app; `graphFile` is the `--graph-dot` file, already opened.
    static func run(_ arguments: Arguments, graphFile: GraphFile?) async throws {
        let configuration = AppConfiguration(environment: arguments.environment, databasePath: arguments.databasePath)
        configureLogging(for: configuration.environment)
        let slowResolutions = SlowResolutionLog()
        let slowHook = UnifiedDI.onSlowResolution { name, seconds in slowResolutions.record(name, seconds) }
        defer { slowHook.cancel() }

        print("WeaveDI example shop (\(configuration.environment))")
        let summary = try await AppDI.bootstrap(configuration)
        progress(
            1,
            "bootstrap: database \(displayPath(summary.databasePath)) (migrations: \(summary.migrations.joined(separator: ", "))); "
                + "\(summary.modules.totalModules) core modules from \(summary.modules.factories.filter { $0.moduleCount > 0 }.count) factories; "
                + "features: \(summary.features.joined(separator: " → "))")

        let flow = ShopFlow()
        let (user, isNew) = try flow.signUp()
        progress(
            2,
            "user: \(user.name) <\(user.email)> #\(user.id) (\(isNew ? "new" : "returning"), \(user.loyaltyPoints) points)"
        )

        let order = try await flow.order(for: user)
        let items = order.lines.map { "\($0.quantity) × \($0.sku)" }.joined(separator: ", ")
        progress(3, "order #\(order.id): \(items) = \(formatCents(order.totalCents)) (\(order.status.rawValue))")

        let (declined, captured) = try await flow.pay(order)
        progress(
            4,
            "payment: card …\(declined.payment.cardLast4) \(declined.payment.status.rawValue) (\(declined.payment.declineReason ?? "")); "
                + "card …\(captured.payment.cardLast4) \(captured.payment.status.rawValue) (\(captured.payment.reference ?? ""))"
        )

        let (paidOrder, rewardedUser) = try flow.reload(order, user)
        // Development and testing decorate the bus with a journal; production has none.
        let journal =
            Container.shared.isRegistered(EventJournal.self) ? Container.shared.resolve(EventJournal.self) : nil
        progress(
            5,
            "events\(journal.map { " (" + $0.entries.joined(separator: " → ") + ")" } ?? ""): order #\(order.id) is \(paidOrder?.status.rawValue ?? "missing"); "
                + "\(user.name) has \(rewardedUser?.loyaltyPoints ?? 0) loyalty points; "
                + "receipt: \(captured.receipt.map(displayPath) ?? "none (no receipt printer in \(configuration.environment))")"
        )

        try await printDiagnostics(arguments, graphFile: graphFile, slowResolutions: slowResolutions)

        // Release everything (a `--env testing` database deletes its temporary file).
        await WeaveDI.Container.reset()
    }

    static func progress(_ step: Int, _ message: String) {
        print("[\(step)/6] \(message)")
    }

    /// Warnings while developing, errors in production, silence in tests.
    static func configureLogging(for environment: AppEnvironment) {
        switch environment {
        case .development: UnifiedDI.setLogLevel(.warnings)
        case .testing: UnifiedDI.setLogLevel(.off)
        case .production: UnifiedDI.setLogLevel(.errors)
        }
    }

    /// `path` relative to the current directory when it is inside it.
    static func displayPath(_ path: String) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}

/// Slow resolutions reported by `UnifiedDI.onSlowResolution`, kept for the summary instead of
/// being printed as they happen.
final class SlowResolutionLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(String, TimeInterval)] = [] // guarded by `lock`

    func record(_ name: String, _ seconds: TimeInterval) { lock.withLock { entries.append((name, seconds)) } }
    var all: [(String, TimeInterval)] { lock.withLock { entries } }
}
