import Atomics

/// Records which registration resolved which while factories run: the real dependency graph.
///
/// Edges are keyed by type identity and name; type names are spelled out only when the graph is
/// read, so recording costs one hash-set insert.
final class DependencyGraphRecorder: Sendable {
    struct Node: Hashable, @unchecked Sendable {
        let key: RegistryKey
        let type: Any.Type

        static func == (lhs: Node, rhs: Node) -> Bool { lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }

        var label: String { ResolutionFrame.displayName(type, key.name) }
    }

    struct Edge: Hashable, Sendable {
        let from: Node
        let to: Node
    }

    private let edges = Locked<Set<Edge>>([])
    // `UnsafeAtomic` (freed in deinit): every nested resolution reads it, and a `ManagedAtomic`
    // load costs a retain, a release and a dynamic call there.
    private let epochCounter = UnsafeAtomic<Int>.create(0)

    init() {}

    deinit { epochCounter.destroy() }

    /// Changes whenever the graph is cleared, so per-thread "already recorded" caches expire.
    var epoch: Int { epochCounter.load(ordering: .relaxed) }

    func record(from: ResolutionFrame, to key: RegistryKey, type: Any.Type) {
        let edge = Edge(from: Node(key: from.key, type: from.type), to: Node(key: key, type: type))
        _ = edges.withLock { $0.insert(edge) }
    }

    var allEdges: Set<Edge> { edges.current }

    func removeAll() {
        edges.withLock { $0.removeAll() }
        epochCounter.wrappingIncrement(ordering: .relaxed)
    }
}
