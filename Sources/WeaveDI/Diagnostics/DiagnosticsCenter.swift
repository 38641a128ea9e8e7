import Atomics
import Foundation
internal import Logging

/// Collects hooks and the logger for every container in the process.
///
/// Everything here runs off the hot path: the resolution path reads only `runtimeFlags`, and
/// calls in when something is worth telling (a failure someone listens for, a timed resolution
/// at least as slow as the lowest threshold). Messages are built only after the level check.
final class DiagnosticsCenter: Sendable {
    static let shared = DiagnosticsCenter()

    /// The slow-resolution threshold in force until `UnifiedDI.setSlowResolutionThreshold` changes it.
    static let defaultSlowThreshold: TimeInterval = 0.010

    typealias SlowHandler = @Sendable (String, TimeInterval) -> Void
    typealias ErrorHandler = @Sendable (String, DIError) -> Void
    typealias PressureHandler = @Sendable () -> Void

    private struct SlowHook {
        let id: Int
        /// The hook's own threshold, or `nil` for the process-wide one.
        let threshold: TimeInterval?
        let handler: SlowHandler
    }

    private struct State {
        var nextID = 0
        var slow: [SlowHook] = []
        var errors: [(id: Int, handler: ErrorHandler)] = []
        var pressure: [(id: Int, handler: PressureHandler)] = []
        var slowThreshold: TimeInterval = DiagnosticsCenter.defaultSlowThreshold
        /// Replaces the swift-log logger (tests capture messages with it).
        var logger: Logger?
    }

    private let state = Locked(State())
    let pressureMonitor = MemoryPressureMonitor()

    // MARK: Logging

    var logLevel: DILogLevel {
        get { DILogLevel(rawValue: runtimeFlags.logLevel.load(ordering: .relaxed)) ?? .errors }
        set {
            runtimeFlags.logLevel.store(newValue.rawValue, ordering: .relaxed)
            state.withLock { updateFlags($0) }
        }
    }

    /// The logger messages go to: label "WeaveDI", made when a message is logged so that a
    /// `LoggingSystem.bootstrap` made after WeaveDI was first used still takes effect.
    var logger: Logger {
        get { state.withLock { $0.logger } ?? Logger(label: "WeaveDI") }
        set { state.withLock { $0.logger = newValue } }
    }

    /// Drops a logger set with ``logger``, going back to `Logger(label: "WeaveDI")`.
    func resetLogger() { state.withLock { $0.logger = nil } }

    func logInfo(_ message: @autoclosure () -> String) {
        if logLevel >= .all { logger.info("\(message())") }
    }

    func logWarning(_ message: @autoclosure () -> String) {
        if logLevel >= .warnings { logger.warning("\(message())") }
    }

    func logError(_ message: @autoclosure () -> String) {
        if logLevel >= .errors { logger.error("\(message())") }
    }

    // MARK: Hooks

    var slowThreshold: TimeInterval {
        get { state.withLock { $0.slowThreshold } }
        set {
            state.withLock {
                $0.slowThreshold = max(0, newValue)
                updateFlags($0)
            }
        }
    }

    @discardableResult
    func onSlowResolution(threshold: TimeInterval?, _ handler: @escaping SlowHandler) -> HookToken {
        state.withLock { s in
            s.nextID += 1
            s.slow.append(SlowHook(id: s.nextID, threshold: threshold.map { max(0, $0) }, handler: handler))
            updateFlags(s)
            return HookToken(id: s.nextID)
        }
    }

    @discardableResult
    func onResolutionError(_ handler: @escaping ErrorHandler) -> HookToken {
        state.withLock { s in
            s.nextID += 1
            s.errors.append((s.nextID, handler))
            return HookToken(id: s.nextID)
        }
    }

    /// Installs a memory-pressure hook; the first one starts watching the system.
    @discardableResult
    func onMemoryPressure(_ handler: @escaping PressureHandler) -> HookToken {
        let (token, status) = state.withLock { s -> (HookToken, MemoryPressureMonitor.Status?) in
            s.nextID += 1
            s.pressure.append((s.nextID, handler))
            // Under the lock, so a concurrent removal of the last hook cannot stop it afterwards.
            let status =
                s.pressure.count == 1
                ? pressureMonitor.start { DiagnosticsCenter.shared.reportMemoryPressure(source: $0) }
                : nil
            return (HookToken(id: s.nextID), status)
        }
        if case .unavailable(let reason)? = status {
            logWarning(
                "No system memory-pressure source (\(reason)); only Container.handleMemoryPressure() reaches the onMemoryPressure hooks."
            )
        }
        return token
    }

    func removeHook(_ id: Int) {
        state.withLock { s in
            s.slow.removeAll { $0.id == id }
            s.errors.removeAll { $0.id == id }
            let hadPressureHooks = !s.pressure.isEmpty
            s.pressure.removeAll { $0.id == id }
            if hadPressureHooks && s.pressure.isEmpty { pressureMonitor.stop() }
            updateFlags(s)
        }
    }

    /// Recomputes what the resolution path reads: whether to time factories, and from which
    /// duration a timing is worth a call here. Called with the state lock held.
    private func updateFlags(_ s: State) {
        var shortest: TimeInterval = .infinity
        if logLevel >= .warnings { shortest = s.slowThreshold }
        for hook in s.slow { shortest = min(shortest, hook.threshold ?? s.slowThreshold) }
        runtimeFlags.timing.store(shortest.isFinite, ordering: .relaxed)
        let nanos = shortest.isFinite ? UInt64(min(shortest * 1e9, Double(UInt64.max / 2))) : .max
        runtimeFlags.slowNanos.store(nanos, ordering: .relaxed)
    }

    // MARK: Events

    /// Whether a failure would reach anyone: an error hook, or the log at its level.
    func hasListeners(for error: DIError) -> Bool {
        if logLevel >= error.logLevel { return true }
        return state.withLock { !$0.errors.isEmpty }
    }

    func reportFailure(_ error: DIError) {
        let handlers = state.withLock { $0.errors.map(\.handler) }
        if logLevel >= error.logLevel {
            if error.logLevel == .errors {
                logger.error("\(error.description)")
            } else {
                logger.warning("\(error.description)")
            }
        }
        guard !handlers.isEmpty else { return }
        let name = error.typeName
        for handler in handlers { handler(name, error) }
    }

    /// Called with every timed resolution; the name is spelled out only when it is slow.
    func reportResolutionTime(_ type: Any.Type, name: String?, seconds: TimeInterval) {
        // Most timings are fast: dismiss them with one atomic load, without the lock.
        let nanos = seconds * 1e9
        guard nanos >= Double(runtimeFlags.slowNanos.load(ordering: .relaxed)) else { return }
        let (hooks, threshold) = state.withLock { ($0.slow, $0.slowThreshold) }
        let due = hooks.filter { seconds >= ($0.threshold ?? threshold) }
        let logs = logLevel >= .warnings && seconds >= threshold
        guard logs || !due.isEmpty else { return }
        let displayName = ResolutionFrame.displayName(type, name)
        if logs {
            logger.warning(
                "Slow resolution: \(displayName) took \(String(format: "%.3f", seconds * 1000)) ms (threshold \(String(format: "%.3f", threshold * 1000)) ms)"
            )
        }
        for hook in due { hook.handler(displayName, seconds) }
    }

    /// Tells the memory-pressure hooks; `source` says who noticed (the system source or a call).
    func reportMemoryPressure(source: String) {
        let handlers = state.withLock { $0.pressure.map(\.handler) }
        if logLevel >= .warnings {
            logger.warning("Memory pressure (\(source)); \(handlers.count) hook(s) notified")
        }
        for handler in handlers { handler() }
    }
}
