import WeaveDICore

extension Injected {
    /// Reads `InjectedValues.current[key]` on every access, for a key type used directly, as in
    /// `@Injected(XImpl.self) var x: XImpl` for an implementation that is its own ``InjectedKey``.
    /// The same value as an `InjectedValues` entry over `key`: its override, or its default.
    ///
    /// (`SendableMetatype`: the read runs in whichever task reads the property. Every key type not
    /// isolated to a global actor is one.)
    public init<Key: InjectedKey & SendableMetatype>(_ key: Key.Type) where Key.Value == Value {
        self.init { $0[Key.self] }
    }
}
