#if Hummingbird
    public import Hummingbird

    /// A Hummingbird request context that carries the request's ``RequestDependencies``.
    ///
    /// ``RequestScopeMiddleware`` sets ``dependencies`` before the rest of the chain runs, so a
    /// handler reads request-scoped values from its context: `try context.resolve(UnitOfWork.self)`.
    /// Use ``BasicWeaveDIRequestContext``, or add a stored `var dependencies: RequestDependencies?`
    /// (initially `nil`) to your own context.
    public protocol WeaveDIRequestContext: RequestContext {
        /// This request's dependencies; `nil` until ``RequestScopeMiddleware`` has run.
        var dependencies: RequestDependencies? { get set }
    }

    /// Why a request-scoped value could not be resolved from a context.
    public enum RequestDependenciesError: Error, Sendable, CustomStringConvertible {
        /// The context has no ``RequestDependencies``: ``RequestScopeMiddleware`` is not in front of
        /// this handler.
        case middlewareMissing

        public var description: String {
            "the request context has no request scope: add RequestScopeMiddleware in front of this route"
        }
    }

    extension WeaveDIRequestContext {
        /// Resolves `type` in this request's scope instance, or throws why it could not
        /// (``RequestDependenciesError/middlewareMissing`` without the middleware, else a `DIError`).
        public func resolve<T>(_ type: T.Type = T.self) throws -> T {
            guard let dependencies else { throw RequestDependenciesError.middlewareMissing }
            return try dependencies.resolve(type)
        }

        /// Resolves the registration of `type` made under `name` in this request's scope instance.
        public func resolve<T>(_ name: String, _ type: T.Type = T.self) throws -> T {
            guard let dependencies else { throw RequestDependenciesError.middlewareMissing }
            return try dependencies.resolve(name, type)
        }
    }
#endif
