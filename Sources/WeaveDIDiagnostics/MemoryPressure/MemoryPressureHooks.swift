import WeaveDICore

/// The process's `UnifiedDI.onMemoryPressure` hooks, and the monitor that calls them.
///
/// The monitor runs only while at least one hook is installed: the first hook starts it, removing
/// the last stops it (both under the lock, so an install racing a removal cannot leave it in the
/// wrong state).
package final class MemoryPressureHooks: HookRegistry {
    package static let shared = MemoryPressureHooks()

    private struct State {
        var nextID = 0
        var handlers: [(id: Int, handler: @Sendable () -> Void)] = []
    }

    private let state = Locked(State())
    let monitor = MemoryPressureMonitor()

    /// The system source being watched, if any.
    package var source: String? {
        if case .watching(let source) = monitor.status { return source }
        return nil
    }

    /// Installs a hook; the first one starts watching the system.
    package func install(_ handler: @escaping @Sendable () -> Void) -> HookToken {
        let (token, status) = state.withLock { s -> (HookToken, MemoryPressureMonitor.Status?) in
            s.nextID += 1
            s.handlers.append((s.nextID, handler))
            let status =
                s.handlers.count == 1
                ? monitor.start { MemoryPressureHooks.shared.report(source: $0) }
                : nil
            return (HookToken(id: s.nextID, registry: self), status)
        }
        if case .unavailable(let reason)? = status {
            ObservationCenter.shared.logWarning(
                "No system memory-pressure source (\(reason)); only UnifiedDI.reportMemoryPressure() reaches the onMemoryPressure hooks."
            )
        }
        return token
    }

    package func removeHook(_ id: Int) {
        state.withLock { s in
            let hadHooks = !s.handlers.isEmpty
            s.handlers.removeAll { $0.id == id }
            if hadHooks && s.handlers.isEmpty { monitor.stop() }
        }
    }

    /// Tells every hook; `source` says who noticed (the system source or a call).
    package func report(source: String) {
        let handlers = state.withLock { $0.handlers.map(\.handler) }
        ObservationCenter.shared.logWarning("Memory pressure (\(source)); \(handlers.count) hook(s) notified")
        for handler in handlers { handler() }
    }
}
