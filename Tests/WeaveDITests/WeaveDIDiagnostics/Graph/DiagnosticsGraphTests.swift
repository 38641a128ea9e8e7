import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

final class GraphApp: Sendable { init(_ service: GraphService?, _ logger: GraphLogger?) {} }
final class GraphService: Sendable { init(_ store: GraphStore?) {} }
final class GraphStore: Sendable {}
protocol GraphLogger: Sendable {}
struct GraphAnalytics {}
final class GraphCycleA: Sendable { init(_ b: GraphCycleB?) {} }
final class GraphCycleB: Sendable { init(_ a: GraphCycleA?) {} }
struct GraphChildOnly {}
struct GraphTop { init(_ left: GraphLeft?, _ right: GraphRight?) {} }
struct GraphLeft { init(_ shared: GraphShared?) {} }
struct GraphRight { init(_ shared: GraphShared?) {} }
struct GraphShared { init(_ leaf: GraphLeaf?) {} }
struct GraphLeaf {}
struct GraphQuote {}

/// App (singleton) -> Service (transient) -> Store["main"] (singleton); App asks for the missing
/// GraphLogger; a module for GraphAnalytics declares GraphStore and GraphLogger.
private func makeGraphContainer() -> Container {
    let container = Container()
    container.register(GraphApp.self, scope: .singleton) {
        GraphApp(container.resolve(GraphService.self), container.resolve(GraphLogger.self))
    }
    container.register(GraphService.self) { GraphService(container.resolve("main", GraphStore.self)) }
    container.register("main", GraphStore.self, scope: .singleton) { GraphStore() }
    container.register(GraphStore.self) { GraphStore() }
    container.register(
        Module(GraphAnalytics.self, dependencies: [GraphStore.self, GraphLogger.self]) { GraphAnalytics() })
    _ = container.resolve(GraphApp.self)
    return container
}

@Suite(.capturesLog) struct DiagnosticsGraphTests {
    @Test func recordsResolvedMissingAndDeclaredEdges() throws {
        let graph = makeGraphContainer().dependencyGraph()
        func node(_ typeName: String, _ name: String? = nil) throws -> DependencyGraph.Node {
            try #require(graph.nodes.first { $0.typeName == typeName && $0.name == name })
        }
        let app = try node("WeaveDITests.GraphApp")
        let service = try node("WeaveDITests.GraphService")
        let store = try node("WeaveDITests.GraphStore", "main")
        let plainStore = try node("WeaveDITests.GraphStore")
        let logger = try node("WeaveDITests.GraphLogger")
        let analytics = try node("WeaveDITests.GraphAnalytics")
        #expect(app.scope == "singleton")
        #expect(service.scope == "transient")
        #expect(store.label == "GraphStore[\"main\"]")
        #expect(logger.isRegistered == false)
        #expect(app.site?.fileID == "WeaveDITests/DiagnosticsGraphTests.swift")

        let edges = Set(graph.edges)
        #expect(edges.contains(.init(from: app.id, to: service.id, isResolved: true, isDeclared: false)))
        #expect(edges.contains(.init(from: app.id, to: logger.id, isResolved: true, isDeclared: false)))
        #expect(edges.contains(.init(from: service.id, to: store.id, isResolved: true, isDeclared: false)))
        #expect(edges.contains(.init(from: analytics.id, to: plainStore.id, isResolved: false, isDeclared: true)))
        #expect(edges.contains(.init(from: analytics.id, to: logger.id, isResolved: false, isDeclared: true)))
        #expect(graph.edges.count == 5)
        #expect(graph.dependencies(of: app.id).map(\.label) == ["GraphLogger", "GraphService"])
        #expect(graph.dependents(of: logger.id).map(\.label) == ["GraphAnalytics", "GraphApp"])
    }

    @Test func exportsGraphviz() throws {
        let graph = makeGraphContainer().dependencyGraph()
        let dot = graph.dot()
        let app = try #require(graph.nodes(typeName: "WeaveDITests.GraphApp").first)
        let service = try #require(graph.nodes(typeName: "WeaveDITests.GraphService").first)
        let logger = try #require(graph.nodes(typeName: "WeaveDITests.GraphLogger").first)
        let analytics = try #require(graph.nodes(typeName: "WeaveDITests.GraphAnalytics").first)
        let lines = dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "digraph WeaveDI {")
        #expect(lines.last == "}")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(app.id) [label=\"GraphApp\\nsingleton\", tooltip=\"WeaveDITests.GraphApp at WeaveDITests/DiagnosticsGraphTests.swift:"
                )
            })
        #expect(
            lines.contains(
                "\(logger.id) [label=\"GraphLogger\\nmissing\", tooltip=\"WeaveDITests.GraphLogger is not registered\", style=dashed, color=red, fontcolor=red];"
            ))
        #expect(lines.contains("\(app.id) -> \(service.id);"))
        #expect(lines.contains("\(analytics.id) -> \(logger.id) [style=dashed, label=\"declared\"];"))
        #expect(lines.filter { $0.contains("->") }.count == graph.edges.count)
    }

    @Test func exportsMermaid() throws {
        let graph = makeGraphContainer().dependencyGraph()
        let mermaid = graph.mermaid()
        let app = try #require(graph.nodes(typeName: "WeaveDITests.GraphApp").first)
        let service = try #require(graph.nodes(typeName: "WeaveDITests.GraphService").first)
        let store = try #require(graph.nodes(typeName: "WeaveDITests.GraphStore").first { $0.name == "main" })
        let logger = try #require(graph.nodes(typeName: "WeaveDITests.GraphLogger").first)
        let analytics = try #require(graph.nodes(typeName: "WeaveDITests.GraphAnalytics").first)
        let lines = mermaid.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "graph LR")
        #expect(lines.contains("\(app.id)[\"GraphApp<br/>singleton\"]"))
        #expect(lines.contains("\(store.id)[\"GraphStore[#quot;main#quot;]<br/>singleton\"]"))
        #expect(lines.contains("\(logger.id)[\"GraphLogger<br/>missing\"]:::missing"))
        #expect(lines.contains("\(app.id) --> \(service.id)"))
        #expect(lines.contains("\(analytics.id) -. declared .-> \(logger.id)"))
        #expect(lines.contains { $0.hasPrefix("classDef missing ") })
    }

    @Test func exportsJSONThatDecodesBack() throws {
        let graph = makeGraphContainer().dependencyGraph()
        let json = try graph.json()
        #expect(json.contains("\"typeName\" : \"WeaveDITests.GraphApp\""))
        #expect(json.contains("\"scope\" : \"singleton\""))
        #expect(json.contains("\"fileID\" : \"WeaveDITests/DiagnosticsGraphTests.swift\""))
        let decoded = try JSONDecoder().decode(DependencyGraph.self, from: Data(json.utf8))
        #expect(decoded == graph)
        let compact = try graph.json(prettyPrinted: false)
        #expect(!compact.contains("\n"))
        #expect(try JSONDecoder().decode(DependencyGraph.self, from: Data(compact.utf8)) == graph)
    }

    @Test func rendersAReadableTree() {
        let tree = makeGraphContainer().dependencyGraph().textTree()
        #expect(
            tree == """
                GraphAnalytics (transient)
                ├── GraphLogger (missing) [declared]
                └── GraphStore (transient) [declared]
                GraphApp (singleton)
                ├── GraphLogger (missing)
                └── GraphService (transient)
                    └── GraphStore["main"] (singleton)

                """)
    }

    @Test func treeMarksCycles() {
        let container = Container()
        container.register(GraphCycleA.self) { GraphCycleA(container.resolve(GraphCycleB.self)) }
        container.register(GraphCycleB.self) { GraphCycleB(container.resolve(GraphCycleA.self)) }
        _ = container.resolve(GraphCycleA.self)
        let tree = container.dependencyGraph().textTree()
        #expect(
            tree == """
                GraphCycleA (transient)
                └── GraphCycleB (transient)
                    └── GraphCycleA (transient) (cycle)

                """)
    }

    @Test func treeExpandsASharedDependencyOnce() {
        let container = Container()
        container.register(GraphTop.self) {
            GraphTop(container.resolve(GraphLeft.self), container.resolve(GraphRight.self))
        }
        container.register(GraphLeft.self) { GraphLeft(container.resolve(GraphShared.self)) }
        container.register(GraphRight.self) { GraphRight(container.resolve(GraphShared.self)) }
        container.register(GraphShared.self) { GraphShared(container.resolve(GraphLeaf.self)) }
        container.register(GraphLeaf.self) { GraphLeaf() }
        _ = container.resolve(GraphTop.self)
        #expect(
            container.dependencyGraph().textTree() == """
                GraphTop (transient)
                ├── GraphLeft (transient)
                │   └── GraphShared (transient)
                │       └── GraphLeaf (transient)
                └── GraphRight (transient)
                    └── GraphShared (transient) (see above)

                """)
    }

    @Test func childGraphIncludesParentRegistrationsAndItsOwnOverrides() throws {
        let parent = Container()
        parent.register(GraphStore.self, scope: .singleton) { GraphStore() }
        parent.register(GraphService.self) { GraphService(parent.resolve(GraphStore.self)) }
        let child = Container(parent: parent)
        child.register(GraphStore.self) { GraphStore() }
        child.register(GraphChildOnly.self) { GraphChildOnly() }
        _ = child.resolve(GraphService.self)
        let graph = child.dependencyGraph()
        let store = try #require(graph.nodes(typeName: "WeaveDITests.GraphStore").first)
        #expect(store.scope == "transient") // the child's registration hides the parent's
        #expect(graph.nodes(typeName: "WeaveDITests.GraphChildOnly").count == 1)
        #expect(graph.nodes(typeName: "WeaveDITests.GraphService").count == 1)
        #expect(graph.edges.count == 1) // the parent's service resolved the parent's store
        #expect(parent.dependencyGraph().nodes(typeName: "WeaveDITests.GraphChildOnly").isEmpty)
    }

    @Test func labelsAreEscapedInEveryFormat() throws {
        let container = Container()
        container.register("say \"hi\" <now>", GraphQuote.self) { GraphQuote() }
        let graph = container.dependencyGraph()
        #expect(graph.dot().contains("label=\"GraphQuote[\\\"say \\\"hi\\\" <now>\\\"]\\ntransient\""))
        #expect(graph.mermaid().contains("[\"GraphQuote[#quot;say #quot;hi#quot; #lt;now#gt;#quot;]<br/>transient\"]"))
        let decoded = try JSONDecoder().decode(DependencyGraph.self, from: Data(try graph.json().utf8))
        #expect(decoded.nodes.first?.name == "say \"hi\" <now>")
    }

    @Test func resetForgetsRecordedEdges() {
        let container = makeGraphContainer()
        container.reset()
        #expect(container.dependencyGraph().nodes.isEmpty)
        #expect(container.dependencyGraph().textTree() == "(no registrations)\n")
    }
}
