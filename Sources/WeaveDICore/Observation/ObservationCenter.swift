import Atomics
import Foundation
internal import Logging

// What the core tells the layers above it, and how (the narrow interface: the core never calls a
// layer). While factories run, the resolution path writes facts into per-container recorders:
// which registration resolved which (`DependencyGraphRecorder`, `Container.graph`), misses and
// factory timings (`StatisticsStore`, `Container.statisticsStore`); resolution counts live in the
// registry's slots. Failures and slow resolutions go to this center, which logs them and calls
// the `UnifiedDI.on…` hooks. The diagnostics layer (validation, the dependency graph, statistics)
// reads the recorders; the facade installs hooks. What the resolution path reads to decide
// whether to record or time at all is one atomic load each (`RuntimeFlags`).

/// Collects hooks and the logger for every container in the process.
///
/// Everything here runs off the hot path: the resolution path reads only `runtimeFlags`, and
/// calls in when something is worth telling (a failure someone listens for, a timed resolution
/// at least as slow as the lowest threshold). Messages are built only after the level check.
package final class ObservationCenter: HookRegistry {
    package static let shared = ObservationCenter()

    /// The slow-resolution threshold in force until `UnifiedDI.setSlowResolutionThreshold` changes it.
    static let defaultSlowThreshold: TimeInterval = 0.010

    /// The log messages' source, whichever of the library's modules logs them (swift-log would
    /// otherwise name the module: `WeaveDICore`, `WeaveDIModules`).
    static let source = "WeaveDI"

    package typealias SlowHandler = @Sendable (String, TimeInterval) -> Void
    package typealias ErrorHandler = @Sendable (String, DIError) -> Void

    private struct SlowHook {
        let id: Int
        /// The hook's own threshold, or `nil` for the process-wide one.
        let threshold: TimeInterval?
        let handler: SlowHandler
    }

    private struct State {
        var nextID = 0
        var slow: [SlowHook] = []
        var errors: [(id: Int, handler: ErrorHandler)] = [] {
            // Kept alongside, so a failure reads the handlers without building an array.
            didSet { errorHandlers = errors.map(\.handler) }
        }
        var errorHandlers: [ErrorHandler] = []
        var slowThreshold: TimeInterval = ObservationCenter.defaultSlowThreshold
        /// Replaces the swift-log logger (tests capture messages with it).
        var logger: Logger?
        /// The misses already logged at `.errors` in a debug build (each type and name once).
        var announcedMisses: Set<RegistryKey> = []
    }

    private let state = Locked(State())

    // MARK: Logging

    package var logLevel: DILogLevel {
        get { DILogLevel(rawValue: runtimeFlags.logLevel.load(ordering: .relaxed)) ?? .errors }
        set {
            let previous = runtimeFlags.logLevel.exchange(newValue.rawValue, ordering: .relaxed)
            state.withLock { updateFlags($0) }
            // Whoever turns everything on learns first which WeaveDI is talking.
            if newValue == .all, previous != DILogLevel.all.rawValue {
                emit(.info, "WeaveDI \(DIVersion.current): logging at .all")
            }
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

    package func logInfo(_ message: @autoclosure () -> String) {
        if logLevel >= .all { emit(.info, message()) }
    }

    package func logWarning(_ message: @autoclosure () -> String) {
        if logLevel >= .warnings { emit(.warning, message()) }
    }

    package func logError(_ message: @autoclosure () -> String) {
        if logLevel >= .errors { emit(.error, message()) }
    }

    /// Sends a message to the task's ``LogCapture`` when one is bound, to swift-log otherwise.
    private func emit(_ severity: LogCapture.Severity, _ message: String) {
        if let capture = LogCapture.current { return capture.append(severity, message) }
        switch severity {
        case .info: logger.info("\(message)", source: Self.source)
        case .warning: logger.warning("\(message)", source: Self.source)
        case .error: logger.error("\(message)", source: Self.source)
        }
    }

    // MARK: Misses at the default level

    /// Whether `error` is a miss that a debug build logs at `.errors` (the default level) because
    /// it is the first of its type and name: a forgotten registration shows up once, in the log
    /// a developer reads, while an optional dependency missing on purpose costs one line.
    /// Release builds log misses only from `.warnings`.
    private func isFirstMissAtDefaultLevel(_ error: DIError, consume: Bool) -> Bool {
        #if DEBUG
            guard logLevel == .errors, case .dependencyNotFound(let type, let name, _) = error else { return false }
            let key = RegistryKey(anyType: type, name: name)
            return state.withLock {
                consume ? $0.announcedMisses.insert(key).inserted : !$0.announcedMisses.contains(key)
            }
        #else
            return false
        #endif
    }

    // MARK: Hooks

    package var slowThreshold: TimeInterval {
        get { state.withLock { $0.slowThreshold } }
        set {
            state.withLock {
                $0.slowThreshold = max(0, newValue)
                updateFlags($0)
            }
        }
    }

    @discardableResult
    package func onSlowResolution(threshold: TimeInterval?, _ handler: @escaping SlowHandler) -> HookToken {
        state.withLock { s in
            s.nextID += 1
            s.slow.append(SlowHook(id: s.nextID, threshold: threshold.map { max(0, $0) }, handler: handler))
            updateFlags(s)
            return HookToken(id: s.nextID, registry: self)
        }
    }

    @discardableResult
    package func onResolutionError(_ handler: @escaping ErrorHandler) -> HookToken {
        state.withLock { s in
            s.nextID += 1
            s.errors.append((s.nextID, handler))
            return HookToken(id: s.nextID, registry: self)
        }
    }

    package func removeHook(_ id: Int) {
        state.withLock { s in
            s.slow.removeAll { $0.id == id }
            s.errors.removeAll { $0.id == id }
            updateFlags(s)
        }
    }

    /// Turns on the factory path that looks decorators up, for good. Under the state lock, so a
    /// concurrent `updateFlags` (a hook or the log level changing) cannot read "no decorators"
    /// before this and store it after, switching every decorator off.
    package func noteDecoratorAdded() {
        if runtimeFlags.decoratorsAdded.load(ordering: .relaxed) { return }
        state.withLock { s in
            runtimeFlags.decoratorsAdded.store(true, ordering: .relaxed)
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
        runtimeFlags.factoryHooks.store(
            shortest.isFinite || runtimeFlags.decoratorsAdded.load(ordering: .relaxed), ordering: .relaxed)
        let nanos = shortest.isFinite ? UInt64(min(shortest * 1e9, Double(UInt64.max / 2))) : .max
        runtimeFlags.slowNanos.store(nanos, ordering: .relaxed)
    }

    // MARK: Events

    /// Whether a failure would reach anyone: an error hook, or the log at its level.
    func hasListeners(for error: DIError) -> Bool {
        if logLevel >= error.logLevel || isFirstMissAtDefaultLevel(error, consume: false) { return true }
        return state.withLock { !$0.errors.isEmpty }
    }

    package func reportFailure(_ error: DIError) {
        let handlers = state.withLock { $0.errorHandlers }
        if logLevel >= error.logLevel {
            emit(error.logLevel == .errors ? .error : .warning, error.description)
        } else if isFirstMissAtDefaultLevel(error, consume: true) {
            emit(
                .warning,
                error.description
                    + " (A debug build logs the first miss of each type at the default level; UnifiedDI.setLogLevel(.warnings) logs every miss, .off none.)"
            )
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
            emit(
                .warning,
                "Slow resolution: \(displayName) took \(String(format: "%.3f", seconds * 1000)) ms (threshold \(String(format: "%.3f", threshold * 1000)) ms)"
            )
        }
        for hook in due { hook.handler(displayName, seconds) }
    }
}
