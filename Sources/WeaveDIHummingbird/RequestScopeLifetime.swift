#if Hummingbird
    import WeaveDI

    /// Ends one request's scope instance exactly once, with the first reason given.
    ///
    /// The middleware ends it after the response body was written (or failed to be). If Hummingbird
    /// drops the response without writing its body (the connection closed before the head could be
    /// written), the body closure that holds this object is released and `deinit` ends the instance
    /// with `.cancelled` in a new task: no request's instance outlives its request.
    final class RequestScopeLifetime: Sendable {
        let instance: ScopeInstance
        private let once = OnceFlag()

        init(_ instance: ScopeInstance) { self.instance = instance }

        /// Ends the instance and awaits the async disposal of what it holds, unless already done.
        func end(reason: DisposalReason) async {
            guard once.claim() else { return }
            await instance.end(reason: reason)
        }

        deinit {
            guard once.claim() else { return }
            let instance = self.instance
            Task { await instance.end(reason: .cancelled) }
        }
    }
#endif
