#if Hummingbird
    public import Hummingbird

    /// The request context to use with ``RequestScopeMiddleware`` when you need nothing else in it:
    /// Hummingbird's basic context plus ``WeaveDIRequestContext/dependencies``.
    public struct BasicWeaveDIRequestContext: WeaveDIRequestContext, RequestContext {
        /// Hummingbird's per-request storage (logger, request decoder, …).
        public var coreContext: CoreRequestContextStorage
        /// This request's dependencies, set by ``RequestScopeMiddleware``.
        public var dependencies: RequestDependencies?

        /// A context for a request arriving through the application.
        public init(source: ApplicationRequestContextSource) {
            self.coreContext = .init(source: source)
            self.dependencies = nil
        }
    }
#endif
