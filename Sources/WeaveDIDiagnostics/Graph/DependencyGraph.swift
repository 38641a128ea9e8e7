import WeaveDICore

/// A snapshot of the dependency graph: which registration needs which.
///
/// Nodes are registrations (type, name, scope, site) plus types something needs that are not
/// registered. Edges come from two sources: what factories were seen resolving while they ran
/// (``Edge/isResolved``; a registration never resolved yet has none) and what registrations
/// declared (``Edge/isDeclared``): a module's `dependencies:`, an autowired registration's
/// initializer parameters. ``Container/dependencyGraph()`` gives the graph as it
/// has been observed so far; ``ValidationReport/graph`` gives the whole graph, every registration
/// resolved once in a sandbox.
///
/// Export it as Graphviz (``dot()``), Mermaid (``mermaid()``), JSON (``json(prettyPrinted:)``,
/// or encode it: it is `Codable`) or a readable tree (``textTree()``, also its `description`).
public struct DependencyGraph: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Every node, ordered by type name, then name.
    public let nodes: [Node]
    /// Every edge, ordered by dependent, then dependency.
    public let edges: [Edge]
    /// The registration key of each node (by ``Node/id``) of a graph WeaveDI built, so that code
    /// ordering by the graph matches registrations by identity, never by printed type names
    /// (which two private types can share). Not encoded and not compared: a decoded graph has none.
    package private(set) var nodeKeys: [String: RegistryKey] = [:]

    private enum CodingKeys: String, CodingKey {
        case nodes, edges
    }

    public static func == (lhs: DependencyGraph, rhs: DependencyGraph) -> Bool {
        lhs.nodes == rhs.nodes && lhs.edges == rhs.edges
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nodes)
        hasher.combine(edges)
    }

    /// A graph of the given nodes and edges (edges name nodes by ``Node/id``).
    public init(nodes: [Node], edges: [Edge]) {
        self.nodes = nodes
        self.edges = edges
    }

    /// The nodes of the fully qualified `typeName` (one per registered name).
    public func nodes(typeName: String) -> [Node] { nodes.filter { $0.typeName == typeName } }

    /// The direct dependencies of the node `id`, ordered by label.
    public func dependencies(of id: String) -> [Node] {
        let targets = Set(edges.filter { $0.from == id }.map(\.to))
        return nodes.filter { targets.contains($0.id) }.sorted { $0.label < $1.label }
    }

    /// The nodes that directly depend on the node `id`, ordered by label.
    public func dependents(of id: String) -> [Node] {
        let sources = Set(edges.filter { $0.to == id }.map(\.from))
        return nodes.filter { sources.contains($0.id) }.sorted { $0.label < $1.label }
    }

    /// The readable tree (see ``textTree()``).
    public var description: String { textTree() }
}

extension DependencyGraph {
    /// Builds the graph of `registrations` (which win over anything else of the same key),
    /// the `recorded` edges and the declared dependencies of the registrations.
    init(registrations: [ChainedRegistration], recorded: [DependencyGraphRecorder.Edge]) {
        struct Pending {
            let type: Any.Type
            var record: RegistrationRecord?
        }
        var pending: [RegistryKey: Pending] = [:]
        for registration in registrations {
            pending[registration.key] = Pending(type: registration.record.type, record: registration.record)
        }
        func ensure(_ key: RegistryKey, _ type: Any.Type) {
            if pending[key] == nil { pending[key] = Pending(type: type, record: nil) }
        }
        struct Pair: Hashable {
            let from: RegistryKey
            let to: RegistryKey
        }
        var flags: [Pair: (resolved: Bool, declared: Bool, optional: Bool)] = [:]
        for edge in recorded {
            ensure(edge.from.key, edge.from.type)
            ensure(edge.to.key, edge.to.type)
            flags[Pair(from: edge.from.key, to: edge.to.key), default: (false, false, false)].resolved = true
        }
        let registered = Set(registrations.map(\.key))
        for registration in registrations {
            // A context registration's dependencies are those of the entry that applies.
            for declared in registration.applying.declaredDependencies {
                let dependency = Container.DeclaredDependency(declared: declared)
                // An optional parameter (`Logger?`) depends on `Logger`, unless `Logger?` itself
                // is registered (which then wins, as in resolution).
                let type =
                    dependency.isOptional && !registered.contains(RegistryKey(anyType: declared))
                    ? dependency.type : declared
                let key = RegistryKey(anyType: type)
                ensure(key, type)
                flags[Pair(from: registration.key, to: key), default: (false, false, false)].declared = true
                if dependency.isOptional { flags[Pair(from: registration.key, to: key)]?.optional = true }
            }
        }

        let ordered = pending.map {
            (
                key: $0.key, type: $0.value.type, record: $0.value.record,
                full: TypeNames.qualified($0.value.type)
            )
        }
        .sorted { ($0.full, $0.key.name ?? "", $0.key.id) < ($1.full, $1.key.name ?? "", $1.key.id) }
        let shortLabels = ordered.map { DependencyGraph.label(TypeNames.short($0.type), $0.key.name) }
        var labelCounts: [String: Int] = [:]
        for label in shortLabels { labelCounts[label, default: 0] += 1 }

        var ids: [RegistryKey: String] = [:]
        var nodes: [Node] = []
        for (index, entry) in ordered.enumerated() {
            let id = "n\(index)"
            ids[entry.key] = id
            let short = shortLabels[index]
            nodes.append(
                Node(
                    id: id, typeName: entry.full, name: entry.key.name,
                    label: labelCounts[short, default: 0] > 1
                        ? DependencyGraph.label(entry.full, entry.key.name) : short,
                    scope: entry.record?.scope.description, site: entry.record?.site,
                    context: entry.record?.context?.description,
                    inactiveContexts: entry.record.map { record in
                        let inactive = record.inactiveContexts.map { $0?.description ?? "plain" }
                        return inactive.isEmpty ? nil : inactive
                    } ?? nil))
        }
        var edges: [Edge] = []
        for (pair, flag) in flags {
            guard let from = ids[pair.from], let to = ids[pair.to] else { continue }
            edges.append(
                Edge(
                    from: from, to: to, isResolved: flag.resolved, isDeclared: flag.declared, isOptional: flag.optional)
            )
        }
        let position = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1.id, $0) })
        edges.sort {
            (position[$0.from, default: 0], position[$0.to, default: 0]) < (
                position[$1.from, default: 0], position[$1.to, default: 0]
            )
        }
        self.init(nodes: nodes, edges: edges)
        nodeKeys = Dictionary(uniqueKeysWithValues: ids.map { ($1, $0) })
    }

    static func label(_ type: String, _ name: String?) -> String {
        guard let name else { return type }
        return "\(type)[\"\(name)\"]"
    }
}

extension DependencyGraph {
    /// One registration (or one type something depends on that is not registered).
    public struct Node: Sendable, Hashable, Codable, Identifiable {
        /// The node's identifier in this graph and its exports (`n0`, `n1`, …, in the order of
        /// ``typeName`` then ``name``).
        public let id: String
        /// The fully qualified type (`MyApp.UserService`, `any MyApp.Repository<MyApp.User>`).
        public let typeName: String
        /// The name the type is registered under, if any.
        public let name: String?
        /// A short readable label: the type without its module, plus the name (`Cache["images"]`);
        /// the qualified type when two nodes would read the same.
        public let label: String
        /// The lifetime (`transient`, `singleton`, `weak`, `scope(request)`), or `nil` when the
        /// type is not registered.
        public let scope: String?
        /// Where it was registered, if it is.
        public let site: RegistrationSite?

        /// The context of the registration the node stands for, when it is a context registration
        /// (`register(_:in:…)`) that applies now (`test`, `preview`, `argument(-mock)`); `nil` for
        /// a plain registration.
        public let context: String?
        /// The other registrations of the key, which do not apply now, by context (`plain` for the
        /// plain registration); `nil` when there is none.
        public let inactiveContexts: [String]?

        /// A node; `scope` `nil` marks a type that is not registered.
        public init(
            id: String, typeName: String, name: String?, label: String, scope: String?, site: RegistrationSite?,
            context: String? = nil, inactiveContexts: [String]? = nil
        ) {
            self.id = id
            self.typeName = typeName
            self.name = name
            self.label = label
            self.scope = scope
            self.site = site
            self.context = context
            self.inactiveContexts = inactiveContexts
        }

        /// Whether the type (and name) is registered.
        public var isRegistered: Bool { scope != nil }

        /// The scope, the context that applies and the inactive ones, or "missing":
        /// `singleton, context test (inactive: plain)`.
        var scopeCaption: String {
            guard let scope else { return "missing" }
            var text = scope
            if let context { text += ", context \(context)" }
            if let inactiveContexts { text += " (inactive: \(inactiveContexts.joined(separator: ", ")))" }
            return text
        }

        /// The label with its scope (and context), or "missing": `Cache["images"] (singleton)`.
        var caption: String { "\(label) (\(scopeCaption))" }
    }
}

extension DependencyGraph {
    /// "`from` depends on `to`", with how WeaveDI learned it.
    public struct Edge: Sendable, Hashable, Codable {
        /// The ``Node/id`` of the dependent.
        public let from: String
        /// The ``Node/id`` of the dependency.
        public let to: String
        /// Whether `from`'s factory was seen resolving `to` (or asking for it while it was missing).
        public let isResolved: Bool
        /// Whether `from` declared `to`: its module listed it in `dependencies:`, or `to` is a
        /// parameter of `from`'s autowired initializer. Known without running `from`'s factory.
        public let isDeclared: Bool
        /// Whether `to` is an optional parameter of `from`'s autowired initializer
        /// (`logger: Logger?`): `from` is built with `nil` when `to` is not registered, so a
        /// missing `to` here is not a problem.
        public let isOptional: Bool

        /// An edge from the node `from` to the node `to` (``Node/id``s).
        public init(from: String, to: String, isResolved: Bool, isDeclared: Bool, isOptional: Bool = false) {
            self.from = from
            self.to = to
            self.isResolved = isResolved
            self.isDeclared = isDeclared
            self.isOptional = isOptional
        }

        private enum CodingKeys: String, CodingKey {
            case from, to, isResolved, isDeclared, isOptional
        }

        /// Decodes an edge; JSON written before ``isOptional`` existed decodes with it `false`.
        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            from = try values.decode(String.self, forKey: .from)
            to = try values.decode(String.self, forKey: .to)
            isResolved = try values.decode(Bool.self, forKey: .isResolved)
            isDeclared = try values.decode(Bool.self, forKey: .isDeclared)
            isOptional = try values.decodeIfPresent(Bool.self, forKey: .isOptional) ?? false
        }
    }
}

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
