import Atomics
import Foundation

/// Process-wide switches the resolution path reads with single atomic loads.
@usableFromInline
final class RuntimeFlags: Sendable {
    /// Set by `UnifiedRegistry.enableOptimization()`: skip graph recording.
    @usableFromInline let optimized = ManagedAtomic<Bool>(false)
    /// Whether factory runs are timed (a slow-resolution hook is installed or warnings are logged).
    @usableFromInline let timing = ManagedAtomic<Bool>(false)
    /// The `DILogLevel` raw value in force.
    let logLevel = ManagedAtomic<Int>(DILogLevel.errors.rawValue)
    /// The shortest duration, in nanoseconds, anyone wants to hear about as slow; a timed
    /// resolution faster than this is dismissed without taking a lock.
    let slowNanos = ManagedAtomic<UInt64>(.max)

    init() {}
}

@usableFromInline
let runtimeFlags = RuntimeFlags()

/// A monotonic clock reading in seconds.
@usableFromInline
func monotonicSeconds() -> TimeInterval {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
}
