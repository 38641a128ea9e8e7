import WeaveDICore

extension RegisterModule {
    /// The definition form of ``makeDependency(_:dependencies:name:scope:file:line:factory:)->Module``:
    /// a closure that makes the module, for where a definition (`@Sendable () -> Module`) is
    /// expected, as in `definitions.append(registerModule.makeDependency(…) { … })` or a computed
    /// `var m: @Sendable () -> Module { makeDependency(X.self) { XImpl() } }` next to
    /// ``makeUseCaseWithRepository(_:repositoryProtocol:repositoryFallback:name:scope:file:line:factory:)``.
    ///
    /// Where the type of the result is not stated (`let m = registerModule.makeDependency(…)`),
    /// Swift picks the `Module` form. Each call of the definition makes the same module.
    @_disfavoredOverload
    public func makeDependency<T>(
        _ type: T.Type,
        dependencies: [Any.Type] = [],
        name: String? = nil,
        scope: Scope? = nil,
        file: String = #fileID,
        line: Int = #line,
        factory: @Sendable @escaping () throws -> T
    ) -> @Sendable () -> Module {
        let module: Module = makeDependency(
            type, dependencies: dependencies, name: name, scope: scope, file: file, line: line, factory: factory)
        return { module }
    }
}
