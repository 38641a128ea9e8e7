import WeaveDICore

/// The built-in factory for scoped dependencies: request-scoped services, session data, temporary
/// contexts. Every module it makes lives in ``scope`` (``Scope/request`` unless set otherwise),
/// whether made through ``registerModule`` or ``makeScopedModule(_:name:file:line:factory:)``;
/// a definition may still name another scope explicitly.
///
/// ```swift
/// extension ScopeModuleFactory {
///     mutating func setup() {
///         let registerModule = self.registerModule   // carries `scope`
///         definitions.append {
///             registerModule.makeModule(RequestContext.self) { RequestContext() }
///         }
///     }
/// }
///
/// var factory = ScopeModuleFactory(scope: .session)
/// factory.setup()
/// ```
public struct ScopeModuleFactory: ModuleFactory, Sendable {
    /// The scope this factory's modules live in.
    public var scope: Scope
    /// The scoped definitions, registered in this order.
    public var definitions: [@Sendable () -> Module]

    /// An empty factory whose modules are per-request (``Scope/request``).
    public init() {
        self.init(scope: .request)
    }

    /// An empty factory whose modules live in `scope`.
    public init(scope: Scope) {
        self.scope = scope
        self.definitions = []
    }

    /// A maker whose modules default to ``scope``.
    public var registerModule: RegisterModule { RegisterModule(defaultScope: scope) }

    /// A module for `type` living in ``scope``: one instance per scope instance, built on first
    /// resolution within it.
    public func makeScopedModule<T>(
        _ type: T.Type,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> Module {
        Module(type, name: name, scope: scope, file: file, line: line, factory: factory)
    }
}
