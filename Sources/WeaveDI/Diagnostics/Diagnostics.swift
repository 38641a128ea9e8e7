import Atomics
import Foundation
import Logging

/// Process-wide switches the resolution path reads with single atomic loads.
@usableFromInline
final class RuntimeFlags: Sendable {
    // `UnsafeAtomic` (never destroyed: the flags live as long as the process) rather than
    // `ManagedAtomic`, whose loads from inlined client code cost a retain, a release and a call.
    /// Set by `UnifiedRegistry.enableOptimization()`: skip statistics and graph recording.
    @usableFromInline let optimized = UnsafeAtomic<Bool>.create(false)
    /// Whether factory runs are timed (a slow-resolution hook is installed or warnings are logged).
    @usableFromInline let timing = UnsafeAtomic<Bool>.create(false)
    /// Whether failures need reporting beyond the thrown error (hooks installed or logging on).
    let logLevel = UnsafeAtomic<Int>.create(DILogLevel.errors.rawValue)

    init() {}
}

@usableFromInline
let runtimeFlags = RuntimeFlags()

/// A handle that removes a hook installed with `UnifiedDI.on…`.
public struct HookToken: Sendable, Hashable {
    let id: Int
    /// Removes the hook; later events no longer reach it.
    public func cancel() { DiagnosticsCenter.shared.removeHook(id) }
}

/// Collects hooks, the logger and resolution statistics for every container in the process.
final class DiagnosticsCenter: Sendable {
    static let shared = DiagnosticsCenter()

    typealias SlowHandler = @Sendable (String, TimeInterval) -> Void
    typealias ErrorHandler = @Sendable (String, DIError) -> Void
    typealias PressureHandler = @Sendable () -> Void

    private struct State {
        var nextID = 0
        var slow: [(Int, SlowHandler)] = []
        var errors: [(Int, ErrorHandler)] = []
        var pressure: [(Int, PressureHandler)] = []
        var slowThreshold: TimeInterval = 0.010
    }

    private let state = Locked(State())
    let logger = Logger(label: "WeaveDI")

    var logLevel: DILogLevel {
        get { DILogLevel(rawValue: runtimeFlags.logLevel.load(ordering: .relaxed)) ?? .errors }
        set {
            runtimeFlags.logLevel.store(newValue.rawValue, ordering: .relaxed)
            updateTiming()
        }
    }

    var slowThreshold: TimeInterval {
        get { state.withLock { $0.slowThreshold } }
        set { state.withLock { $0.slowThreshold = max(0, newValue) } }
    }

    @discardableResult
    func onSlowResolution(_ handler: @escaping SlowHandler) -> HookToken {
        defer { updateTiming() }
        return state.withLock { s in
            s.nextID += 1
            s.slow.append((s.nextID, handler))
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

    @discardableResult
    func onMemoryPressure(_ handler: @escaping PressureHandler) -> HookToken {
        state.withLock { s in
            s.nextID += 1
            s.pressure.append((s.nextID, handler))
            return HookToken(id: s.nextID)
        }
    }

    func removeHook(_ id: Int) {
        state.withLock { s in
            s.slow.removeAll { $0.0 == id }
            s.errors.removeAll { $0.0 == id }
            s.pressure.removeAll { $0.0 == id }
        }
        updateTiming()
    }

    private func updateTiming() {
        let hasSlowHooks = state.withLock { !$0.slow.isEmpty }
        runtimeFlags.timing.store(hasSlowHooks || logLevel >= .warnings, ordering: .relaxed)
    }

    // MARK: Events

    func reportFailure(_ error: DIError) {
        let handlers = state.withLock { $0.errors.map(\.1) }
        switch error {
        case .dependencyNotFound:
            if logLevel >= .warnings { logger.warning("\(error.description)") }
        default:
            if logLevel >= .errors { logger.error("\(error.description)") }
        }
        for handler in handlers { handler(error.typeName, error) }
    }

    func reportResolutionTime(_ name: String, _ seconds: TimeInterval) {
        let (handlers, threshold) = state.withLock { ($0.slow.map(\.1), $0.slowThreshold) }
        guard seconds >= threshold else { return }
        if logLevel >= .warnings {
            logger.warning("Slow resolution: \(name) took \(String(format: "%.3f", seconds * 1000)) ms")
        }
        for handler in handlers { handler(name, seconds) }
    }

    func reportMemoryPressure() {
        let handlers = state.withLock { $0.pressure.map(\.1) }
        if logLevel >= .warnings { logger.warning("Memory pressure: dropping cached weak instances") }
        for handler in handlers { handler() }
    }

    func logInfo(_ message: @autoclosure () -> String) {
        if logLevel >= .all { logger.info("\(message())") }
    }

    func logWarning(_ message: @autoclosure () -> String) {
        if logLevel >= .warnings { logger.warning("\(message())") }
    }
}

/// A monotonic clock reading in seconds.
@usableFromInline
func monotonicSeconds() -> TimeInterval {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
}
