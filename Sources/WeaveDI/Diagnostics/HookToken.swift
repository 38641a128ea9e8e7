/// A handle that removes a hook installed with `UnifiedDI.on…`.
public struct HookToken: Sendable, Hashable {
    let id: Int
    /// Removes the hook; later events no longer reach it. Removing the last memory-pressure hook
    /// also stops watching the system for memory pressure.
    public func cancel() { DiagnosticsCenter.shared.removeHook(id) }
}
