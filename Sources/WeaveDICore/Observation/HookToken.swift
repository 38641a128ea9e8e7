/// A handle that removes a hook installed with `UnifiedDI.on…`.
public struct HookToken: Sendable, Hashable {
    /// The hook's number in its registry.
    let id: Int
    /// Where the hook is installed: the resolution events (slow resolutions, errors) in the core,
    /// the memory-pressure hooks in the diagnostics layer.
    private let registry: any HookRegistry

    package init(id: Int, registry: any HookRegistry) {
        self.id = id
        self.registry = registry
    }

    /// Removes the hook; later events no longer reach it. Removing the last memory-pressure hook
    /// also stops watching the system for memory pressure.
    public func cancel() { registry.removeHook(id) }

    public static func == (lhs: HookToken, rhs: HookToken) -> Bool {
        lhs.id == rhs.id && lhs.registry === rhs.registry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(ObjectIdentifier(registry))
    }
}

/// Something hooks are installed in, which a ``HookToken`` removes them from.
package protocol HookRegistry: AnyObject, Sendable {
    func removeHook(_ id: Int)
}
