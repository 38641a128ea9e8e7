#if Hummingbird
    public import Hummingbird
    public import WeaveDI

    /// Gives every request its own instance of a scope (``WeaveDI/Scope/request`` by default), current
    /// for the rest of the middleware chain and the handler, and ends it after the response is written.
    ///
    /// Guarantees, per request:
    /// - A fresh `ScopeInstance` from `container.beginScope(scope)`, bound task-locally around the
    ///   rest of the chain (and `container` bound as `Container.shared` when
    ///   `bindsSharedContainer` is `true`), so `@Inject`, `@Injected`, Factory keys, `resolve` and
    ///   ``WeaveDIRequestContext/resolve(_:)`` all see this request's instances and no other
    ///   request's: concurrent requests never share a request-scoped instance.
    /// - The instance is ended exactly once with `end(reason:)`, which awaits `dispose(reason:)` of
    ///   every `AsyncDisposable` it holds, newest first:
    ///   - `.completed` after the response body has been written (for a HEAD request, whose body is
    ///     never written, once the handler has returned);
    ///   - `.failed` when the handler throws (before Hummingbird writes the error response), or when
    ///     writing the body throws an error other than cancellation;
    ///   - `.cancelled` when the handler or the body write is cancelled (throws `CancellationError`
    ///     or runs in a cancelled task), and when the response is dropped without its body being
    ///     written (the client went away first): then the instance is ended in a new task.
    ///
    /// Nothing of the request is kept after it ends: the middleware holds no state between requests.
    public struct RequestScopeMiddleware<Context: WeaveDIRequestContext>: RouterMiddleware {
        /// The container request-scoped registrations are resolved from.
        public let container: Container
        /// The scope that gets one instance per request.
        public let scope: Scope
        /// Whether `container` is also made `Container.shared` for the request's task (what the
        /// property wrappers and Factory keys resolve from).
        public let bindsSharedContainer: Bool

        /// A middleware giving each request an instance of `scope` in `container`.
        ///
        /// It makes `scope` one that must be bound (``WeaveDI/Container/requireBinding(of:)``): a
        /// registration of `scope` resolved outside any request (a health check, a `Task.detached`
        /// in a handler) fails with ``WeaveDI/DIError/scopeNotBound(scope:type:)`` instead of
        /// sharing one instance among all such resolutions. Resolve through
        /// ``WeaveDIRequestContext/dependencies`` to reach the request's instance from any task.
        public init(container: Container = .shared, scope: Scope = .request, bindsSharedContainer: Bool = true) {
            self.container = container
            self.scope = scope
            self.bindsSharedContainer = bindsSharedContainer
            container.requireBinding(of: scope)
        }

        public func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let instance = container.beginScope(scope)
            let lifetime = RequestScopeLifetime(instance)
            var context = context
            context.dependencies = RequestDependencies(container: container, scope: instance)
            var response: Response
            do {
                response = try await bound(instance) { try await next(request, context) }
            } catch {
                await lifetime.end(reason: Self.reason(for: error))
                throw error
            }
            if request.method == .head {
                // Hummingbird answers HEAD from the GET route and drops the body this middleware
                // would wrap (when the middleware sits under the router): nothing of it is
                // written, so the request is complete once the handler has returned.
                await lifetime.end(reason: Task.isCancelled ? .cancelled : .completed)
                return response
            }
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { [self] writer in
                do {
                    try await bound(instance) { try await body.write(writer) }
                } catch {
                    await lifetime.end(reason: Self.reason(for: error))
                    throw error
                }
                await lifetime.end(reason: Task.isCancelled ? .cancelled : .completed)
            }
            return response
        }

        /// Runs `operation` with `instance` (and, if asked, the container as `shared`) bound.
        private func bound<R>(
            _ instance: ScopeInstance,
            isolation: isolated (any Actor)? = #isolation,
            _ operation: () async throws -> R
        ) async throws -> R {
            if bindsSharedContainer {
                return try await Container.withShared(container, isolation: isolation) {
                    try await container.withScope(instance, isolation: isolation, operation: operation)
                }
            }
            return try await container.withScope(instance, isolation: isolation, operation: operation)
        }

        static func reason(for error: any Error) -> DisposalReason {
            error is CancellationError || Task.isCancelled ? .cancelled : .failed
        }
    }
#endif
