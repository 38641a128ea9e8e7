import Atomics
import Foundation

/// Process-wide switches the resolution path reads with single atomic loads.
@usableFromInline
package final class RuntimeFlags: Sendable {
    // `UnsafeAtomic` (never destroyed: the flags live as long as the process) rather than
    // `ManagedAtomic`, whose loads from inlined client code cost a retain, a release and a call.
    /// Set by `UnifiedRegistry.enableOptimization()` (the guides' name): skip graph recording.
    @usableFromInline package let graphRecordingOff = UnsafeAtomic<Bool>.create(false)
    /// Whether factory runs are timed (a slow-resolution hook is installed or warnings are logged).
    @usableFromInline let timing = UnsafeAtomic<Bool>.create(false)
    /// Whether a factory run takes the path that times it and applies decorators: `timing`, or a
    /// decorator was ever added to any container (``Container/decorate(_:name:file:line:_:)``). A
    /// plain factory run reads only this.
    @usableFromInline let factoryHooks = UnsafeAtomic<Bool>.create(false)
    /// Whether any container ever had a decorator (never reset: a stale `true` costs a dictionary
    /// look-up per factory run, never a wrong result).
    let decoratorsAdded = UnsafeAtomic<Bool>.create(false)
    /// The `DILogLevel` raw value in force.
    let logLevel = UnsafeAtomic<Int>.create(DILogLevel.errors.rawValue)
    /// The shortest duration, in nanoseconds, anyone wants to hear about as slow; a timed
    /// resolution faster than this is dismissed without taking a lock.
    let slowNanos = UnsafeAtomic<UInt64>.create(.max)
    /// ``Container/maximumResolutionDepth`` (`Int.max`: none set): read by every nested
    /// resolution through the container's `flags` (a global's lazy-initialization check would
    /// cost more than the load).
    let depthLimit = UnsafeAtomic<Int>.create(.max)
    /// ``Container/maximumAsyncResolutionDepth``.
    let asyncDepthLimit = UnsafeAtomic<Int>.create(Container.defaultMaximumAsyncResolutionDepth)
    /// ``Container/possibleCycleTimeout`` in nanoseconds.
    let possibleCycleTimeout = UnsafeAtomic<UInt64>.create(2_000_000_000)
    /// How many async factories are running, process-wide. While none is, a synchronous
    /// resolution made outside any factory cannot be made on an async factory's behalf, and
    /// skips looking for one (a task-local read) to record its dependency-graph edge.
    @usableFromInline let asyncFactoriesRunning = UnsafeAtomic<Int>.create(0)

    init() {}
}

@usableFromInline
package let runtimeFlags = RuntimeFlags()

/// A monotonic clock reading in seconds.
@usableFromInline
package func monotonicSeconds() -> TimeInterval {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
}
