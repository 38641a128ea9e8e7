extension Container {
    /// Starts a new instance of `scope`. Make it current with
    /// ``withScope(_:operation:)-(ScopeInstance,_)`` and ``ScopeInstance/end()`` it when done.
    public func beginScope(_ scope: Scope) -> ScopeInstance {
        ScopeInstance(scope: scope)
    }

    /// Ends the container's current instance of `scope`, releasing its instances; the next
    /// resolution outside a bound scope instance starts a new one.
    public func endScope(_ scope: Scope) {
        scopes.end(scope)
    }

    /// Makes `scope` exist only where a task binds an instance of it: from now on, resolving a
    /// registration of `scope` through this container, its ancestors or their children with no
    /// bound instance that applies fails with ``DIError/scopeNotBound(scope:type:)`` instead of
    /// using the container's current instance (which would be shared by every such resolution
    /// until ``endScope(_:)``). The current instances of `scope` in this container and its
    /// ancestors are ended.
    ///
    /// A server's request-scope middleware calls it, so a request-scoped unit of work resolved
    /// outside any request (a health check, a `Task.detached` in a handler) is an error that says
    /// what to do, never one instance shared by all of them.
    public func requireBinding(of scope: Scope) {
        var container: Container? = self
        while let current = container {
            current.scopes.requireBinding(of: scope)
            container = current.parent
        }
    }

    /// Runs `operation` in a fresh instance of `scope`, ended (its instances released) when it
    /// returns or throws. Concurrent calls get separate instances: one per request on a server.
    ///
    /// This form cannot await the disposal of `AsyncDisposable` instances, so it disposes none.
    /// In async code the async form is chosen even for a closure that does not `await` (this
    /// one is the disfavored overload), so `await container.withScope(.request) { … }` always
    /// disposes.
    @_disfavoredOverload
    @discardableResult
    public func withScope<R>(_ scope: Scope, operation: () throws -> R) rethrows -> R {
        let instance = beginScope(scope)
        defer { instance.end() }
        return try withScope(instance, operation: operation)
    }

    /// Runs `operation` in a fresh instance of `scope`, ended when it returns or throws.
    ///
    /// The instance ends with ``ScopeInstance/end(reason:)``, so its `AsyncDisposable` instances
    /// are disposed before this returns: with ``DisposalReason/completed`` when `operation`
    /// returns, ``DisposalReason/cancelled`` when it throws `CancellationError` or the task is
    /// cancelled, ``DisposalReason/failed`` when it throws anything else.
    @discardableResult
    public func withScope<R>(
        _ scope: Scope,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        let instance = beginScope(scope)
        let result: R
        do {
            result = try await withScope(instance, isolation: isolation, operation: operation)
        } catch {
            let reason: DisposalReason = error is CancellationError || Task.isCancelled ? .cancelled : .failed
            await instance.end(reason: reason)
            throw error
        }
        await instance.end(reason: Task.isCancelled ? .cancelled : .completed)
        return result
    }

    /// Runs `operation` with `instance` as this container's current instance of its scope.
    @discardableResult
    public func withScope<R>(_ instance: ScopeInstance, operation: () throws -> R) rethrows -> R {
        try ScopeBinding.$bound.withValue(ScopeBinding.adding(instance, on: self), operation: operation)
    }

    /// Runs `operation` with `instance` as this container's current instance of its scope.
    @discardableResult
    public func withScope<R>(
        _ instance: ScopeInstance,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await ScopeBinding.$bound.withValue(
            ScopeBinding.adding(instance, on: self), operation: operation, isolation: isolation)
    }
}
