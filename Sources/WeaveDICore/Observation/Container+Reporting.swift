import Foundation

/// How failures and edges leave the resolution path: to the hooks and the log (or a validation
/// sandbox's collector), and to the dependency-graph recorder.
extension Container {
    /// Reports a failure to the hooks and the log (or, in a validation sandbox, to its
    /// collector), counting a miss and adding look-alike registrations to it.
    ///
    /// A failure a factory rethrew after a nested call reported it is not reported again, so the
    /// hooks hear each failure once. A miss that someone may read (`thrown`: the caller gets the
    /// error; a hook; the log) carries its look-alikes unread: they are computed when first read,
    /// usually when the message is formatted, so a miss costs the same with a hook that does not
    /// read them (see ``DIError/LookAlikes``).
    @usableFromInline @discardableResult
    package func report(_ error: DIError, thrown: Bool = false) -> DIError {
        report(error, thrown: thrown, asyncDependent: nil)
    }

    /// ``report(_:thrown:)`` for a failure met in an async factory, `asyncDependent` (which the
    /// thread's stack does not show).
    @discardableResult
    func report(_ error: DIError, thrown: Bool, asyncDependent: ResolutionFrame?) -> DIError {
        // A validation sandbox hears what its thread's diverted resolutions report, not the app.
        if let sandbox = divertedTarget() {
            return sandbox.report(error, thrown: thrown, asyncDependent: asyncDependent)
        }
        let stack = ResolutionStack.current
        if stack.takePropagated(error) { return error }
        var error = error
        if case .dependencyNotFound(let type, let name, let similar) = error {
            let key = RegistryKey(anyType: type, name: name)
            statisticsStore.recordMiss(key, type: type)
            if recordsGraph, let dependent = stack.top ?? asyncDependent {
                graph.record(from: dependent, to: key, type: type)
            }
            if !similar.isDeferred, similar.isEmpty,
                thrown || failureSink != nil || ObservationCenter.shared.hasListeners(for: error)
            {
                error = .dependencyNotFound(
                    type, name: name, similar: DIError.LookAlikes(lookingUp: type, name: name, in: self))
            }
        }
        if let failureSink {
            failureSink.collect(error, dependent: stack.top ?? asyncDependent, sandbox: identity)
        } else {
            ObservationCenter.shared.reportFailure(error)
        }
        stack.noteReported(error)
        // A synchronous entry point called by an async factory: that factory rethrowing the
        // failure does not make the async entry points report it again.
        if asyncDependent == nil, stack.depth == 0, asyncFactoriesRunning.load(ordering: .relaxed) != 0,
            let top = AsyncResolutionPath.openTop
        {
            top.noteReported(error, by: AsyncResolutionPath.currentTaskID())
        }
        return error
    }

    /// Records "the factory running on this thread resolved `key`" in the dependency graph.
    @usableFromInline
    func noteEdge(to key: RegistryKey, type: Any.Type, stack: ThreadStack) {
        guard stack.depth != 0 else { return noteAsyncEdge(to: key, type: type) }
        if stack.rememberEdge(to: key, container: identity, epoch: graph.epoch) {
            recordEdge(to: key, type: type, stack: stack)
        }
    }

    /// The graph update for an edge this thread has not recorded lately (out of line: rare).
    @inline(never)
    func recordEdge(to key: RegistryKey, type: Any.Type, stack: ThreadStack) {
        let object = stack.object
        graph.record(from: object.frame(at: object.depth - 1), to: key, type: type)
    }
}
