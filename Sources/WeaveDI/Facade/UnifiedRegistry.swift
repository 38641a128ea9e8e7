import Atomics
import WeaveDICore

/// Process-wide switches for the registry behind every container.
///
/// It holds no registrations of its own: registrations live in each ``Container``.
public final class UnifiedRegistry: Sendable {
    /// The switches.
    public static let shared = UnifiedRegistry()

    private init() {}

    /// Stops recording dependency-graph edges in every container (a resolution made inside a
    /// factory then skips the graph's bookkeeping; the benchmark shows little difference
    /// otherwise). Cycle detection, single creation and thread safety stay on, and
    /// so do resolution and miss counts (they cost nothing extra); durations are measured only
    /// while a slow-resolution hook is installed or warnings are logged, as without it.
    public func enableOptimization() {
        runtimeFlags.graphRecordingOff.store(true, ordering: .relaxed)
    }

    /// Turns graph recording back on.
    public func disableOptimization() {
        runtimeFlags.graphRecordingOff.store(false, ordering: .relaxed)
    }
}
