#if Dependencies
    import Testing
    import WeaveDI

    // MARK: Fixtures

    /// Built by a factory that reads a bridged key while it builds (as `validate()` then does).
    struct GreetingBanner: Sendable {
        let text: String
    }

    /// Built by a factory that asks for the bridged key's live value with `resolveLive()`.
    struct GreetingService: Sendable {
        let greeter: any Greeter
    }

    /// Reads the named key (which has a fallback) while it is built.
    struct FormalBanner: Sendable {
        let text: String
    }

    extension Container {
        /// The registrations of these tests, on a container of their own.
        func registerBridgeConsumers() {
            register(GreetingBanner.self) { GreetingBanner(text: Reader().dependencyGreeter.greet()) }
            register(GreetingService.self) { GreetingService(greeter: try GreeterKey.resolveLive()) }
            register(FormalBanner.self) { FormalBanner(text: Reader().injectedFormal.greet()) }
        }
    }

    /// The graph node of the type whose qualified name ends with `suffix`.
    func node(_ graph: DependencyGraph, _ suffix: String, name: String? = nil) -> DependencyGraph.Node? {
        graph.nodes.first { $0.typeName.hasSuffix(suffix) && $0.name == name }
    }

    // MARK: Tests

    @Suite("Dependencies bridge: validate() and the graph see bridged keys")
    struct BridgeValidationTests {
        @Test("a bridged key read by a factory is an edge to its registration in the report and the graph export")
        func edgesToTheRegistration() throws {
            let container = Container()
            container.register((any Greeter).self) { LiveGreeter(id: 1) }
            container.register("formal", (any Greeter).self) { NamedGreeter(id: 2, label: "formal") }
            container.registerBridgeConsumers()
            let report = live(container) { container.validate() }
            #expect(report.isValid, "\(report)")

            let graph = report.graph
            let greeter = try #require(node(graph, "Greeter"))
            let formal = try #require(node(graph, "Greeter", name: "formal"))
            #expect(greeter.isRegistered && formal.isRegistered)
            for (dependent, dependency) in [
                ("GreetingBanner", greeter), ("GreetingService", greeter), ("FormalBanner", formal),
            ] {
                let from = try #require(node(graph, dependent))
                #expect(graph.dependencies(of: from.id).contains(dependency), "\(dependent)")
            }
            // The exports draw the same edges.
            let dot = graph.dot()
            #expect(dot.contains("\(try #require(node(graph, "GreetingBanner")).id) -> \(greeter.id);"))
            #expect(graph.mermaid().contains("\(try #require(node(graph, "FormalBanner")).id) --> \(formal.id)"))
            // Validation built the sandbox's instances, not the app's: the app's graph stays empty.
            #expect(container.dependencyGraph().edges.isEmpty)
        }

        @Test("a bridged key with no registration is a missing dependency of the factory that read it")
        func missingIsReported() throws {
            let container = Container()
            container.register(GreetingService.self) { GreetingService(greeter: try GreeterKey.resolveLive()) }
            let report = live(container) { container.validate() }
            #expect(!report.isValid)
            let missing = try #require(report.missingDependencies.first)
            #expect(report.missingDependencies.count == 1)
            #expect(missing.dependent?.hasSuffix("GreetingService") == true)
            #expect(ObjectIdentifier(missing.missingType) == ObjectIdentifier((any Greeter).self))
            #expect(report.description.contains("Greeter"))
            // The graph shows the edge to the missing (unregistered) node.
            let graph = report.graph
            let greeter = try #require(node(graph, "Greeter"))
            #expect(!greeter.isRegistered)
            let service = try #require(node(graph, "GreetingService"))
            #expect(graph.dependencies(of: service.id).contains(greeter))
        }

        @Test("a bridged key whose declaration has a fallback is not missing when unregistered")
        func fallbackIsNotMissing() {
            let container = Container()
            container.register(FormalBanner.self) { FormalBanner(text: Reader().injectedFormal.greet()) }
            let report = live(container) { container.validate() }
            #expect(report.isValid, "\(report)")
        }

        @Test("a property-wrapper read with nothing to give stops validate() with the bridge's message")
        func wrapperReadTraps() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let container = Container()
                container.register(GreetingBanner.self) { GreetingBanner(text: Reader().dependencyGreeter.greet()) }
                _ = live(container) { container.validate() }
            }
            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(stderr.contains("The bridged dependency WeaveDIDependenciesTests.GreeterKey could not provide"))
        }
    }
#endif
