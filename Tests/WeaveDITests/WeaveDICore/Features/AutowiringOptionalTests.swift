import Foundation
import Testing
import WeaveDI
import WeaveDIDiagnostics
import WeaveDITestSupport

private protocol OPLogger: Sendable { var tag: String { get } }
private final class OPLoggerImpl: OPLogger {
    let tag: String
    init(_ tag: String = "live") { self.tag = tag }
}
private final class OPAPI: Sendable {}
private struct OPClock: Sendable { let now: Int }

private final class OPService: Sendable {
    let logger: (any OPLogger)?
    init(logger: (any OPLogger)?) { self.logger = logger }
}

/// Optional parameters between required ones: each parameter must get its own value.
private final class OPMixed: Sendable {
    let api: OPAPI
    let logger: (any OPLogger)?
    let clock: OPClock?
    init(api: OPAPI, logger: (any OPLogger)?, clock: OPClock?) {
        self.api = api
        self.logger = logger
        self.clock = clock
    }
}

private final class OPCycleA: Sendable {
    init(b: OPCycleB?) {}
}
private final class OPCycleB: Sendable {
    init(a: OPCycleA) {}
}

private final class OPDeep: Sendable {}
private final class OPNeedsDeep: OPLogger {
    let tag = "deep"
    init(deep: OPDeep) {}
}
private struct OPBoom: Error {}

@MainActor
private final class OPViewModel {
    let logger: (any OPLogger)?
    init(logger: (any OPLogger)?) {
        MainActor.assertIsolated()
        self.logger = logger
    }
}

private func diError(_ body: () throws -> Any) -> DIError? {
    do {
        _ = try body()
        return nil
    } catch { return error as? DIError }
}

@Suite("Autowiring: optional parameters", .capturesLog)
struct AutowiringOptionalTests {
    // MARK: Resolution

    @Test func aMissingOptionalParameterIsNilAndARegisteredOneIsResolved() throws {
        let container = Container()
        container.register(OPService.self, initializer: OPService.init(logger:))
        #expect(try container.resolveOrThrow(OPService.self).logger == nil)
        // Passing `nil` is not a failure: nothing is reported or logged.
        #expect(capturedProblems(mentioning: "OPLogger").isEmpty)
        container.register(OPLogger.self) { OPLoggerImpl("live") }
        #expect(try container.resolveOrThrow(OPService.self).logger?.tag == "live")
    }

    @Test func eachParameterGetsItsOwnValueAmongRequiredAndOptionalOnes() throws {
        let container = Container()
        let api = OPAPI()
        container.register(OPAPI.self) { api }
        container.register(OPClock.self) { OPClock(now: 7) }
        container.register(OPMixed.self, initializer: OPMixed.init(api:logger:clock:))
        let mixed = try container.resolveOrThrow(OPMixed.self)
        #expect(mixed.api === api)
        #expect(mixed.logger == nil)
        #expect(mixed.clock?.now == 7)
        // A required parameter that is missing still fails, with the usual error.
        let without = Container()
        without.register(OPMixed.self, initializer: OPMixed.init(api:logger:clock:))
        guard case .dependencyNotFound(let type, nil, _) = diError({ try without.resolveOrThrow(OPMixed.self) }) else {
            Issue.record("expected dependencyNotFound")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(OPAPI.self))
    }

    @Test func declaredDependenciesMarkTheOptionalParameter() throws {
        let container = Container()
        container.register(OPMixed.self, initializer: OPMixed.init(api:logger:clock:))
        container.register(OPService.self, name: "named", initializer: OPService.init(logger:))
        let declared = try #require(container.declaredDependencies(of: OPMixed.self))
        #expect(declared.map(\.isOptional) == [false, true, true])
        #expect(ObjectIdentifier(declared[1].type) == ObjectIdentifier((any OPLogger).self))
        #expect(ObjectIdentifier(declared[1].declaredType) == ObjectIdentifier(Optional<any OPLogger>.self))
        #expect(
            declared.map(\.description) == ["WeaveDITests.OPAPI", "WeaveDITests.OPLogger?", "WeaveDITests.OPClock?"])
        #expect(container.declaredDependencies(of: OPService.self, name: "named")?.first?.isOptional == true)
        #expect(try container.resolveOrThrow("named", OPService.self).logger == nil)
    }

    @Test func aChildContainerWhoseParentRegistersItGetsTheParentsInstance() throws {
        // Registered in the parent: not nil in the child.
        let parent = Container()
        parent.register(OPLogger.self) { OPLoggerImpl("parent") }
        let child = Container(parent: parent)
        child.register(OPService.self, initializer: OPService.init(logger:))
        #expect(try child.resolveOrThrow(OPService.self).logger?.tag == "parent")

        // An autowired registration of the parent, resolved through a child that registers the
        // parameter, gets the child's; through the parent alone, nil.
        let root = Container()
        root.register(OPService.self, initializer: OPService.init(logger:))
        let overriding = Container(parent: root)
        overriding.register(OPLogger.self) { OPLoggerImpl("child") }
        #expect(try overriding.resolveOrThrow(OPService.self).logger?.tag == "child")
        #expect(try root.resolveOrThrow(OPService.self).logger == nil)
    }

    @Test func lifetimesApplyToTheParameterAndToTheRegistration() throws {
        let container = Container()
        container.register(OPLogger.self, scope: .singleton) { OPLoggerImpl("one") }
        container.register(OPService.self, initializer: OPService.init(logger:))
        let first = try container.resolveOrThrow(OPService.self)
        let second = try container.resolveOrThrow(OPService.self)
        #expect(first !== second)
        #expect(
            first.logger.map { ObjectIdentifier($0 as AnyObject) }
                == second.logger.map { ObjectIdentifier($0 as AnyObject) })

        let shared = Container()
        shared.register(OPService.self, scope: .singleton, initializer: OPService.init(logger:))
        let built = try shared.resolveOrThrow(OPService.self)
        #expect(built.logger == nil)
        shared.register(OPLogger.self) { OPLoggerImpl("late") }
        #expect(try shared.resolveOrThrow(OPService.self) === built, "a singleton is built once")
    }

    @Test func anExplicitOptionalRegistrationWins() throws {
        let container = Container()
        container.register(OPLogger.self) { OPLoggerImpl("plain") }
        container.register(OPService.self, initializer: OPService.init(logger:))
        container.register((any OPLogger)?.self) { OPLoggerImpl("explicit") }
        #expect(try container.resolveOrThrow(OPService.self).logger?.tag == "explicit")
        container.register((any OPLogger)?.self) { nil }
        #expect(try container.resolveOrThrow(OPService.self).logger == nil, "the explicit registration says nil")
        // In a parent, too.
        let child = Container(parent: container)
        child.register(OPLogger.self) { OPLoggerImpl("child") }
        #expect(try child.resolveOrThrow(OPService.self).logger == nil)
    }

    @Test func theActiveContextsDecideWhetherItIsRegistered() throws {
        let container = Container()
        container.register(OPLogger.self, in: .custom("logging")) { OPLoggerImpl("context") }
        container.register(OPService.self, initializer: OPService.init(logger:))
        Container.withContexts(disabling: [.custom("logging")]) {
            #expect(container.resolve(OPService.self)?.logger == nil)
        }
        Container.withContexts([.custom("logging")]) {
            #expect(container.resolve(OPService.self)?.logger?.tag == "context")
        }
    }

    // MARK: Failures propagate

    @Test func aCycleThroughAnOptionalParameterIsACycleWithItsPath() {
        let container = Container()
        container.register(OPCycleA.self, initializer: OPCycleA.init(b:))
        container.register(OPCycleB.self, initializer: OPCycleB.init(a:))
        guard case .circularDependency(let path) = diError({ try container.resolveOrThrow(OPCycleA.self) }) else {
            Issue.record("expected a cycle")
            return
        }
        #expect(path == ["WeaveDITests.OPCycleA", "WeaveDITests.OPCycleB", "WeaveDITests.OPCycleA"])
        #expect(container.validate().cycles.count == 1)
    }

    @Test func aThrowingFactoryBehindAnOptionalParameterFailsTheResolution() {
        let container = Container()
        container.register(OPLogger.self) { () throws -> any OPLogger in throw OPBoom() }
        container.register(OPService.self, initializer: OPService.init(logger:))
        guard
            case .factoryFailed(let type, nil, let underlying) = diError({
                try container.resolveOrThrow(OPService.self)
            })
        else {
            Issue.record("expected factoryFailed")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier((any OPLogger).self))
        #expect(underlying is OPBoom)
        #expect(container.validate().failingFactories.map(\.typeName) == ["WeaveDITests.OPLogger"])
    }

    @Test func aMissingRegistrationInsideTheParametersGraphIsAFailureNotNil() {
        let container = Container()
        container.register(OPLogger.self, initializer: OPNeedsDeep.init(deep:))
        container.register(OPService.self, initializer: OPService.init(logger:))
        guard case .dependencyNotFound(let type, nil, _) = diError({ try container.resolveOrThrow(OPService.self) })
        else {
            Issue.record("expected dependencyNotFound")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(OPDeep.self))
        let report = container.validate()
        #expect(report.missingDependencies.contains { $0.missingType == OPDeep.self })
        #expect(!report.missingDependencies.contains { $0.missingType == (any OPLogger).self })
    }

    @Test func aScopeFailureOfTheParameterFailsTheResolution() {
        let container = Container()
        let session = Scope.custom("op-session")
        container.requireBinding(of: session)
        container.register(OPLogger.self, scope: session) { OPLoggerImpl("session") }
        container.register(OPService.self, initializer: OPService.init(logger:))
        guard case .scopeNotBound = diError({ try container.resolveOrThrow(OPService.self) }) else {
            Issue.record("expected scopeNotBound")
            return
        }
    }

    // MARK: Async

    @Test func asyncInitializersResolveOptionalParametersWithAwait() async throws {
        let container = Container()
        container.registerAsync(OPService.self, initializer: OPService.init(logger:))
        #expect(try await container.resolveAsync(OPService.self).logger == nil)
        container.registerAsync(OPLogger.self) {
            await Task.yield()
            return OPLoggerImpl("async")
        }
        #expect(try await container.resolveAsync(OPService.self).logger?.tag == "async")
        // Through a child, the parent's registration is found.
        let child = Container(parent: container)
        child.registerAsync(OPService.self, name: "child", initializer: OPService.init(logger:))
        #expect(try await child.resolveAsync("child", OPService.self).logger?.tag == "async")
        // An explicit optional registration wins here too.
        container.register((any OPLogger)?.self) { OPLoggerImpl("explicit") }
        #expect(try await container.resolveAsync(OPService.self).logger?.tag == "explicit")
    }

    @Test func asyncFailuresAndCancellationPropagate() async {
        let container = Container()
        container.registerAsync(OPLogger.self) { () async throws -> any OPLogger in throw OPBoom() }
        container.registerAsync(OPService.self, initializer: OPService.init(logger:))
        await #expect(throws: (any Error).self) { try await container.resolveAsync(OPService.self) }

        let cancelled = Container()
        cancelled.registerAsync(OPLogger.self) { () async throws -> any OPLogger in
            try Task.checkCancellation()
            return OPLoggerImpl()
        }
        cancelled.registerAsync(OPService.self, initializer: OPService.init(logger:))
        let outcome = await Task { () async -> OPService?? in
            withUnsafeCurrentTask { $0?.cancel() }
            return try? await cancelled.resolveAsync(OPService.self)
        }.value
        #expect(outcome == nil, "a cancelled parameter fails the resolution; it does not become nil")
    }

    @Test func aMainActorInitializerGetsItsOptionalParameter() async throws {
        let container = Container()
        container.registerAsync(OPViewModel.self, initializer: OPViewModel.init(logger:))
        let empty = try await Task.detached { try await container.resolveAsync(OPViewModel.self) }.value
        #expect(empty.logger == nil)
        container.register(OPLogger.self) { OPLoggerImpl("main") }
        let model = try await Task.detached { try await container.resolveAsync(OPViewModel.self) }.value
        #expect(model.logger?.tag == "main")
    }

    // MARK: Validation and the graph

    @Test func validateDoesNotCountAMissingOptionalParameter() async {
        let container = Container()
        container.register(OPService.self, initializer: OPService.init(logger:))
        container.registerAsync(OPService.self, name: "async", initializer: OPService.init(logger:))
        let report = container.validate()
        #expect(report.isValid, "\(report)")
        #expect(
            report.absentOptionalDependencies == [
                "WeaveDITests.OPService: WeaveDITests.OPLogger?",
                "WeaveDITests.OPService[\"async\"]: WeaveDITests.OPLogger?",
            ])
        #expect(report.description.contains("Optional parameters not registered (nil is passed)"))
        let asyncReport = await container.validateAsync()
        #expect(asyncReport.isValid, "\(asyncReport)")
        #expect(asyncReport.absentOptionalDependencies.count == 2)
        let health = await container.checkHealth(timeout: 5)
        #expect(!health.values.contains { if case .unhealthy = $0 { true } else { false } })
        // Registered, it is no longer listed.
        container.register(OPLogger.self) { OPLoggerImpl() }
        #expect(container.validate().absentOptionalDependencies.isEmpty)
    }

    @Test func aMissingRequiredParameterIsStillReportedBesideAnOptionalOne() {
        let container = Container()
        container.register(OPMixed.self, initializer: OPMixed.init(api:logger:clock:))
        let report = container.validate()
        #expect(report.missingDependencies.map(\.missing) == ["WeaveDITests.OPAPI"])
        #expect(report.absentOptionalDependencies.count == 2)
    }

    @Test func theGraphMarksTheOptionalEdge() throws {
        let container = Container()
        container.register(OPService.self, initializer: OPService.init(logger:))
        let graph = container.dependencyGraph()
        let service = try #require(graph.nodes(typeName: "WeaveDITests.OPService").first)
        let edge = try #require(graph.edges.first { $0.from == service.id })
        #expect(edge.isOptional && edge.isDeclared && !edge.isResolved)
        #expect(graph.nodes.first { $0.id == edge.to }?.typeName == "WeaveDITests.OPLogger")
        #expect(graph.textTree().contains("[optional]"))
        #expect(graph.dot().contains("label=\"optional\""))
        #expect(graph.mermaid().contains("-. optional .->"))
        let decoded = try JSONDecoder().decode(DependencyGraph.self, from: Data(try graph.json().utf8))
        #expect(decoded == graph)
        // JSON written before the flag existed decodes, not optional.
        let old = #"{"from":"n0","isDeclared":true,"isResolved":false,"to":"n1"}"#
        #expect(try JSONDecoder().decode(DependencyGraph.Edge.self, from: Data(old.utf8)).isOptional == false)
        // With an explicit registration of the optional type, the edge goes to it.
        container.register((any OPLogger)?.self) { nil }
        let explicit = container.dependencyGraph()
        let from = try #require(explicit.nodes(typeName: "WeaveDITests.OPService").first)
        let target = try #require(explicit.edges.first { $0.from == from.id }?.to)
        #expect(explicit.nodes.first { $0.id == target }?.isRegistered == true)
    }
}
