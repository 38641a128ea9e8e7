import Atomics

/// Process-wide switches for the registry behind every container.
///
/// It holds no registrations of its own: registrations live in each ``Container``.
public final class UnifiedRegistry: Sendable {
    /// The switches.
    public static let shared = UnifiedRegistry()

    private init() {}

    /// Switches every container to the fastest read path: resolution stops recording statistics
    /// and dependency-graph edges. Cycle detection, single creation and thread safety stay on.
    public func enableOptimization() {
        runtimeFlags.optimized.store(true, ordering: .relaxed)
    }

    /// Turns statistics and graph recording back on.
    public func disableOptimization() {
        runtimeFlags.optimized.store(false, ordering: .relaxed)
    }

    /// Whether ``enableOptimization()`` is in effect.
    public var isOptimizationEnabled: Bool {
        runtimeFlags.optimized.load(ordering: .relaxed)
    }
}
