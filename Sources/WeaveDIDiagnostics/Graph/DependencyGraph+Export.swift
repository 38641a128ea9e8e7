import Foundation
import WeaveDICore

extension DependencyGraph {
    /// The graph in Graphviz DOT: one box per node labelled with its type (and name) and scope,
    /// missing types dashed red, edges a module only declared dashed and labelled "declared",
    /// optional parameters' edges dotted and labelled "optional".
    /// Render it with `dot -Tsvg graph.dot -o graph.svg`.
    public func dot() -> String {
        var lines = ["digraph WeaveDI {", "    rankdir=LR;", "    node [shape=box];"]
        for node in nodes {
            var attributes = ["label=\"\(Self.dotEscaped(node.label))\\n\(Self.dotEscaped(node.scopeCaption))\""]
            let tooltip = node.site.map { "\(node.typeName) at \($0)" } ?? "\(node.typeName) is not registered"
            attributes.append("tooltip=\"\(Self.dotEscaped(tooltip))\"")
            if !node.isRegistered { attributes.append(contentsOf: ["style=dashed", "color=red", "fontcolor=red"]) }
            lines.append("    \(node.id) [\(attributes.joined(separator: ", "))];")
        }
        for edge in edges {
            if edge.isOptional {
                lines.append("    \(edge.from) -> \(edge.to) [style=dotted, label=\"optional\"];")
            } else if edge.isResolved {
                lines.append("    \(edge.from) -> \(edge.to);")
            } else {
                lines.append("    \(edge.from) -> \(edge.to) [style=dashed, label=\"declared\"];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart (paste it into a Mermaid code block): nodes show
    /// type (and name) and scope, missing types use the `missing` class, declared-only edges are
    /// dotted and labelled "declared", optional parameters' edges dotted and labelled "optional".
    public func mermaid() -> String {
        var lines = ["graph LR"]
        for node in nodes {
            let text = "\(Self.mermaidEscaped(node.label))<br/>\(Self.mermaidEscaped(node.scopeCaption))"
            lines.append("    \(node.id)[\"\(text)\"]\(node.isRegistered ? "" : ":::missing")")
        }
        for edge in edges {
            lines.append(
                edge.isOptional
                    ? "    \(edge.from) -. optional .-> \(edge.to)"
                    : edge.isResolved
                        ? "    \(edge.from) --> \(edge.to)"
                        : "    \(edge.from) -. declared .-> \(edge.to)")
        }
        if nodes.contains(where: { !$0.isRegistered }) {
            lines.append("    classDef missing stroke:#c00,stroke-dasharray:5 5,color:#c00")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON: `{"edges": [...], "nodes": [...]}` with the fields of ``Node`` and
    /// ``Edge`` (keys sorted, so equal graphs give equal text). Decode it with `JSONDecoder`.
    public func json(prettyPrinted: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The graph as an indented tree, one line per dependency:
    ///
    /// ```
    /// AppCoordinator (singleton)
    /// ├── Logger (missing)
    /// └── UserService (transient)
    ///     └── Database (singleton)
    /// ```
    ///
    /// Trees start at nodes nothing depends on (then at any node only reachable through a cycle).
    /// A node already expanded above is marked `(see above)`, an edge closing a cycle `(cycle)`,
    /// a dependency only declared by a module `[declared]`, and an optional parameter of an
    /// autowired initializer `[optional]`.
    public func textTree() -> String {
        if nodes.isEmpty { return "(no registrations)\n" }
        let byID = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0) })
        var children: [String: [(node: Node, edge: Edge)]] = [:]
        for edge in edges {
            if let target = byID[edge.to] { children[edge.from, default: []].append((target, edge)) }
        }
        for key in children.keys { children[key]?.sort { $0.node.label < $1.node.label } }
        let dependedOn = Set(edges.map(\.to))
        let ordered = nodes.sorted { $0.label < $1.label }

        var lines: [String] = []
        var expanded = Set<String>()
        func visit(_ node: Node, edge: Edge?, prefix: String, branch: String, path: Set<String>) {
            var line = prefix + branch + node.caption
            if let edge, !edge.isResolved { line += " [declared]" }
            if let edge, edge.isOptional { line += " [optional]" }
            let kids = children[node.id] ?? []
            if path.contains(node.id) {
                lines.append(line + " (cycle)")
                return
            }
            if expanded.contains(node.id) {
                lines.append(line + (kids.isEmpty ? "" : " (see above)"))
                return
            }
            lines.append(line)
            expanded.insert(node.id)
            let childPrefix = prefix + (branch == "├── " ? "│   " : branch.isEmpty ? "" : "    ")
            for (index, child) in kids.enumerated() {
                visit(
                    child.node, edge: child.edge, prefix: childPrefix,
                    branch: index == kids.count - 1 ? "└── " : "├── ", path: path.union([node.id]))
            }
        }
        for root in ordered where !dependedOn.contains(root.id) {
            visit(root, edge: nil, prefix: "", branch: "", path: [])
        }
        for node in ordered where !expanded.contains(node.id) {
            visit(node, edge: nil, prefix: "", branch: "", path: [])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func dotEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    static func mermaidEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "#amp;")
            .replacingOccurrences(of: "\"", with: "#quot;")
            .replacingOccurrences(of: "<", with: "#lt;")
            .replacingOccurrences(of: ">", with: "#gt;")
    }
}
