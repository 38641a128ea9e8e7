#if Hummingbird
    public import WeaveDI

    /// The request scope instance of one request and the container it belongs to: what a handler
    /// resolves request-scoped values from, without global state.
    ///
    /// ``RequestScopeMiddleware`` puts one in ``WeaveDIRequestContext/dependencies`` for every request.
    /// Resolving through it works in any task (a `Task.detached` too), since it binds the request's
    /// scope instance itself; inside the handler's own task the instance is also bound task-locally,
    /// so `@Inject`, `@Injected`, Factory keys and `container.resolve` see it as well.
    public struct RequestDependencies: Sendable {
        /// The container the middleware resolves from.
        public let container: Container
        /// This request's scope instance; ended after the response has been written.
        public let scope: ScopeInstance

        /// The dependencies of a request served by `container` in `scope`.
        public init(container: Container, scope: ScopeInstance) {
            self.container = container
            self.scope = scope
        }

        /// Resolves `type` with this request's scope instance current, or throws the `DIError` that
        /// says why it could not (``WeaveDI/DIError/scopeEnded(scope:type:)`` once the request is over).
        public func resolve<T>(_ type: T.Type = T.self) throws -> T {
            try container.withScope(scope) { try container.resolveOrThrow(type) }
        }

        /// Resolves the registration of `type` made under `name`, with this request's scope current.
        public func resolve<T>(_ name: String, _ type: T.Type = T.self) throws -> T {
            try container.withScope(scope) { try container.resolveOrThrow(name, type) }
        }
    }
#endif
