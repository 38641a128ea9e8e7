/// How long a resolved instance lives.
///
/// - ``transient``: built anew on every resolution (the default).
/// - ``singleton``: built once per container, on first resolution, however many threads race for it.
/// - ``weak``: shared while someone holds a strong reference, built anew once it is gone.
/// - ``graph``: one instance per *outermost resolution*, shared by every factory that resolution
///   runs (Swinject's default object scope, Factory's `graph`), released when it returns.
/// - A custom scope such as ``request`` or ``session``: one instance per *scope instance*. A scope
///   instance is bound to a task with ``Container/withScope(_:operation:)-(Scope,_)`` (one per web request, say)
///   or is the container's current instance of that scope, which ``Container/endScope(_:)`` ends.
public struct Scope: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case transient, singleton, weak, graph
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
    /// One instance per outermost resolution: every factory run by one top-level `resolve` (or
    /// `resolveAsync`, property-wrapper read, `Factory` key call…) that asks for the type gets
    /// the same instance, and the next top-level resolution gets a new one.
    ///
    /// What it guarantees:
    /// - *One graph per outermost resolution.* The graph starts with a resolution made while no
    ///   factory runs on the thread (or in the task), and its instances are released when that
    ///   resolution returns or throws: nothing keeps them but what the resolved objects hold.
    ///   A `resolveAll` made outside a factory resolves each contribution as an outermost
    ///   resolution of its own, so contributions share no graph instance; made inside a factory,
    ///   it shares that factory's graph. A factory that hands work to another thread (a
    ///   `DispatchQueue`) starts a new graph there.
    /// - *Across async factories.* Async factories of one `resolveAsync`, and the child tasks of
    ///   `async let` and task groups inside them, share the graph of the outermost async factory.
    ///   A `Task {}` started inside a factory inherits its task-local values, so it cannot be
    ///   told from a child task: while the outermost factory still runs it shares its graph;
    ///   once that factory returned, the task's resolutions start graphs of their own.
    ///   `Task.detached` always starts its own graph.
    /// - *Never shared between concurrent resolutions.* Two outermost resolutions on different
    ///   threads or tasks never see each other's instances.
    /// - *Per registration.* A graph holds one instance per registration (and per argument value,
    ///   for a registration with arguments); a child container's own registration of the type is
    ///   another registration. The graph is the outermost resolution's, whichever containers its
    ///   factories resolve through.
    /// - *Decorated once* per graph instance, when it is built.
    /// - *Not disposed.* The container does not keep graph instances, so neither `shutdown()` nor
    ///   anything else disposes an `AsyncDisposable` one: it is released like a transient.
    /// - A cycle through a graph-scoped type is reported with its path, like any other.
    ///
    /// ``Container/withScope(_:operation:)-(Scope,_)``, ``Container/beginScope(_:)``,
    /// ``Container/endScope(_:)`` and ``Container/requireBinding(of:)`` do not apply to it: no
    /// scope instance of it is ever bound or current, and resolving ignores them.
    public static let graph = Scope(kind: .graph)
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

    /// Whether this is ``graph``.
    @usableFromInline
    var isGraph: Bool { kind == .graph }

    public var description: String {
        switch kind {
        case .transient: return "transient"
        case .singleton: return "singleton"
        case .weak: return "weak"
        case .graph: return "graph"
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
        // A graph-scoped registration is a scoped one whose scope instance is the graph of the
        // outermost resolution (`Container.scopeInstance(for:requester:previous:)`).
        case .custom, .graph: return .custom
        }
    }
}
