import Atomics

/// Records which registration resolved which while factories run: the real dependency graph.
///
/// Edges are keyed by type identity and name; type names are spelled out only when the graph is
/// read, so recording costs one hash-set insert.
package final class DependencyGraphRecorder: Sendable {
    package struct Node: Hashable, @unchecked Sendable {
        package let key: RegistryKey
        package let type: Any.Type

        package static func == (lhs: Node, rhs: Node) -> Bool { lhs.key == rhs.key }
        package func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    package struct Edge: Hashable, Sendable {
        package let from: Node
        package let to: Node
        /// The container whose factory resolved `to` (a child's factory may resolve a parent's
        /// registration; the edge is recorded in the parent, which owns `to`).
        package let fromContainer: ObjectIdentifier
    }

    private let edges = Locked<Set<Edge>>([])
    /// Epochs come from one process-wide counter, so a recorder never shares one with an earlier
    /// recorder whose container had the same address (validation sandboxes come and go).
    private static let epochSource = ManagedAtomic<Int>(0)
    // `UnsafeAtomic` (freed in deinit): every nested resolution reads it, and a `ManagedAtomic`
    // load costs a retain, a release and a dynamic call there.
    private let epochCounter = UnsafeAtomic<Int>.create(
        DependencyGraphRecorder.epochSource.wrappingIncrementThenLoad(ordering: .relaxed))

    init() {}

    deinit { epochCounter.destroy() }

    /// Changes whenever the graph is cleared, and differs between recorders, so per-thread
    /// "already recorded" caches expire.
    var epoch: Int { epochCounter.load(ordering: .relaxed) }

    func record(from: ResolutionFrame, to key: RegistryKey, type: Any.Type) {
        let edge = Edge(
            from: Node(key: from.key, type: from.type), to: Node(key: key, type: type),
            fromContainer: from.container)
        _ = edges.withLock { $0.insert(edge) }
    }

    package var allEdges: Set<Edge> { edges.current }

    func removeAll() {
        edges.withLock { $0.removeAll() }
        epochCounter.store(
            DependencyGraphRecorder.epochSource.wrappingIncrementThenLoad(ordering: .relaxed), ordering: .relaxed)
    }
}
