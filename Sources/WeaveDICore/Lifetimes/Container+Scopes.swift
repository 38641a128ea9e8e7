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

    /// Runs `operation` in a fresh instance of `scope`, ended (its instances released) when it
    /// returns or throws. Concurrent calls get separate instances: one per request on a server.
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
        var bound = ScopeBinding.bound
        bound[ScopeBinding.Key(container: identity, scope: instance.scope.customName ?? instance.scope.description)] =
            instance
        return try ScopeBinding.$bound.withValue(bound, operation: operation)
    }

    /// Runs `operation` with `instance` as this container's current instance of its scope.
    @discardableResult
    public func withScope<R>(
        _ instance: ScopeInstance,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        var bound = ScopeBinding.bound
        bound[ScopeBinding.Key(container: identity, scope: instance.scope.customName ?? instance.scope.description)] =
            instance
        return try await ScopeBinding.$bound.withValue(bound, operation: operation, isolation: isolation)
    }
}
