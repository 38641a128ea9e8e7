import WeaveDICore

extension UnifiedDI {
    /// Registers `factory` to build `type` in the shared container while `context` is active
    /// (`Container.register(_:scope:in:file:line:factory:)` on `Container.shared`).
    @discardableResult
    public static func register<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        Container.shared.register(type, scope: scope, in: context, file: file, line: line, factory: factory)
    }

    /// Registers `factory` to build `type` under `name` in the shared container while `context`
    /// is active.
    @discardableResult
    public static func register<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        Container.shared.register(name, type, scope: scope, in: context, file: file, line: line, factory: factory)
    }
}
