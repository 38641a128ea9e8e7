/// How long a resolved instance lives.
///
/// - ``transient``: built anew on every resolution (the default).
/// - ``singleton``: built once per container, on first resolution, however many threads race for it.
/// - ``weak``: shared while someone holds a strong reference, built anew once it is gone.
/// - A custom scope such as ``request`` or ``session``: one instance per *scope instance*. A scope
///   instance is bound to a task with ``Container/withScope(_:operation:)-(Scope,_)`` (one per web request, say)
///   or is the container's current instance of that scope, which ``Container/endScope(_:)`` ends.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case transient, singleton, weak
        case custom(String)
    }

    @usableFromInline let kind: Kind

    @usableFromInline
    init(kind: Kind) { self.kind = kind }

    /// A new instance on every resolution.
    public static let transient = Scope(kind: .transient)
    /// One instance per container, built lazily exactly once.
    public static let singleton = Scope(kind: .singleton)
    /// One shared instance while it is referenced elsewhere; rebuilt after it is released.
    public static let weak = Scope(kind: .weak)
    /// A built-in custom scope for per-request instances.
    public static let request = Scope.custom("request")
    /// A built-in custom scope for per-session instances.
    public static let session = Scope.custom("session")

    /// Declares a custom scope. Two scopes with the same name are the same scope.
    public static func custom(_ name: String) -> Scope { Scope(kind: .custom(name)) }

    /// The custom scope's name, or `nil` for the built-in lifetimes.
    public var customName: String? {
        if case .custom(let name) = kind { return name }
        return nil
    }

    /// The name scope instances and bindings are keyed by: the custom name, else the description.
    var name: String { customName ?? description }

    public var description: String {
        switch kind {
        case .transient: return "transient"
        case .singleton: return "singleton"
        case .weak: return "weak"
        case .custom(let name): return "scope(\(name))"
        }
    }

    /// The one-byte tag the resolution path switches on without comparing strings.
    @usableFromInline
    package var tag: ScopeTag {
        switch kind {
        case .transient: return .transient
        case .singleton: return .singleton
        case .weak: return .weak
        case .custom: return .custom
        }
    }
}
