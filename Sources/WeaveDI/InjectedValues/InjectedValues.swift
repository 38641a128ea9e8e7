/// The values ``Injected`` reads by key path: each ``InjectedKey``'s default, or the override
/// the current task set with ``withInjectedValues(_:operation:)``.
///
/// Declare an entry with a computed property over a key:
///
/// ```swift
/// extension InjectedValues {
///     public var apiClient: APIClient {
///         get { self[APIClientKey.self] }
///         set { self[APIClientKey.self] = newValue }
///     }
/// }
/// ```
///
/// A value of this type is a snapshot: setting an entry changes that value only. The values in
/// effect for a task are ``current``.
public struct InjectedValues: Sendable {
    @usableFromInline var overrides: Overrides

    /// No overrides: every entry reads its key's default.
    public init() {
        overrides = Overrides()
    }

    /// The entry for `key`: the override set on this value, or else the key's default for the
    /// process's ``InjectionContext`` (computed once per key and kept).
    public subscript<K: InjectedKey>(key: K.Type) -> K.Value {
        get {
            if let box = overrides.values[ObjectIdentifier(key)] as? OverrideBox<K.Value> { return box.value }
            return InjectedDefaults.shared.value(for: key)
        }
        set {
            overrides.values[ObjectIdentifier(key)] = OverrideBox(value: newValue)
        }
    }

    /// The values in effect for the current task: the innermost ``withInjectedValues(_:operation:)``
    /// override of this task (inherited by the tasks it creates), or the defaults.
    public static var current: InjectedValues { bound }

    /// The context whose values the defaults are: test, preview or live.
    public static var context: InjectionContext { InjectionContext.current }

    @TaskLocal static var bound = InjectedValues()

    /// Overridden entries by key. Values set in an override are shared with the tasks that
    /// inherit it, as a registered instance is: the caller decides they may be shared, which is
    /// why the box is unchecked.
    @usableFromInline
    struct Overrides: @unchecked Sendable {
        @usableFromInline var values: [ObjectIdentifier: Any] = [:]
    }

    /// Wraps an entry so reading it back is an exact type check, even for optional values.
    @usableFromInline
    struct OverrideBox<Value> {
        @usableFromInline let value: Value
    }
}
