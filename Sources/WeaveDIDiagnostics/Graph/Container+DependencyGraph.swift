import WeaveDICore

extension Container {
    /// The dependency graph as observed so far: every registration here and in the parents (a
    /// registration here hides a parent's of the same type and name), the edges factories were
    /// seen resolving (and asking for while missing) since the last ``reset()-swift.method``, and the
    /// dependencies modules declared. Edges are not recorded while
    /// `UnifiedRegistry.shared.enableOptimization()` is in effect.
    ///
    /// A registration never resolved has only its declared edges; ``validate()`` returns the
    /// whole graph, every registration resolved once in a sandbox, as ``ValidationReport/graph``.
    public func dependencyGraph() -> DependencyGraph {
        let containers = chain
        let members = Set(containers.map(\.identity))
        let recorded = containers.flatMap { $0.graph.allEdges }.filter { members.contains($0.fromContainer) }
        return DependencyGraph(registrations: chainedRegistrations(), recorded: recorded)
    }
}
