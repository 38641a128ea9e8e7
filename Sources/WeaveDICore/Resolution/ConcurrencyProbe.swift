/// Named points of the build/wait protocol where tests can force an interleaving.
///
/// Debug builds only: in a release build ``reach(_:_:)`` is empty and inlined away, and the
/// test-facing ``ConcurrencyTestHooks`` does not exist.
enum ConcurrencyProbe {
    /// A point of the protocol (the names are the model's steps, see Spec/BuildWait.pml).
    enum Point: String, Sendable {
        /// A waiter added its wait-for edge and is about to block on the owner's gate.
        case waiterWillBlock
        /// A waiter passed the gate of a finished ticket and is about to look again.
        case waiterDidWake
        /// An owner finished its job and is about to publish the result and release its waiters.
        case ownerWillFinish
        /// A scoped resolution chose the scope instance it resolves in (and has not locked it yet).
        case scopeInstanceChosen
        /// A `Factory` key's scoped default was installed (or found) in the registry, and the
        /// resolution holds its record and is about to resolve through it.
        case factoryDefaultHeld
    }

    @inline(__always)
    static func reach(_ point: Point, _ job: @autoclosure () -> BuildTicket.Job) {
        #if DEBUG
            if let handler = ConcurrencyTestHooks.handler.current { handler(point.rawValue, job().displayName) }
        #endif
    }

    @inline(__always)
    static func reach(_ point: Point, subject: @autoclosure () -> String) {
        #if DEBUG
            if let handler = ConcurrencyTestHooks.handler.current { handler(point.rawValue, subject()) }
        #endif
    }

    @inline(__always)
    static func reach(_ point: Point, scope: @autoclosure () -> String) {
        #if DEBUG
            if let handler = ConcurrencyTestHooks.handler.current { handler(point.rawValue, scope()) }
        #endif
    }
}

#if DEBUG
    /// Test-only: observe (and, by blocking in the handler, delay) the named points of the build/wait
    /// protocol, to force the interleavings the concurrency tests check. Not part of the API; absent
    /// from release builds.
    @_spi(Testing)
    public enum ConcurrencyTestHooks {
        /// The handler receives the point's name (`waiterWillBlock`, `waiterDidWake`,
        /// `ownerWillFinish`, `scopeInstanceChosen`, `factoryDefaultHeld`) and what it concerns (a registration's display
        /// name, an `InjectedValues` default, `AutoRegistering.registerAllServices()`, or a scope).
        public typealias Handler = @Sendable (_ point: String, _ subject: String) -> Void

        static let handler = Locked<Handler?>(nil)

        /// Installs `handler` while `body` runs (one at a time: tests using hooks are serialized).
        public static func with<R>(_ handler: @escaping Handler, _ body: () throws -> R) rethrows -> R {
            self.handler.withLock { $0 = handler }
            defer { self.handler.withLock { $0 = nil } }
            return try body()
        }
    }
#endif
