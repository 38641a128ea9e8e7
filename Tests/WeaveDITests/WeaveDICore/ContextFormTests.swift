import Foundation
import Testing
import WeaveDIDiagnostics
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// The context forms beyond plain factories: factories taking arguments and autowired
// initializers. In `ContextTests` (an extension), so the release-build run
// (`swift test -c release --filter ContextTests`) checks them too.

private final class CFViewModel: Sendable {
    let id: String
    let tag: String
    init(id: String, tag: String) {
        self.id = id
        self.tag = tag
    }
}

private protocol CFService: Sendable { var tag: String { get } }
private final class CFAPI: Sendable {}
private final class CFFixtures: Sendable {}
private final class CFLiveService: CFService {
    let tag = "live"
    init(api: CFAPI) {}
}
private final class CFMockService: CFService {
    let tag = "mock"
    init(fixtures: CFFixtures) {}
}
private final class CFPreviewService: CFService {
    let tag = "preview"
    init() {}
}

private protocol CFPlugin: Sendable { var tag: String { get } }
private struct CFTagged: CFPlugin { let tag: String }

/// Signals of a process showing every context.
private let everything = ProcessSignals(isTest: true, isPreview: true, isDebugBuild: true, arguments: ["-mock"])

extension ContextTests {
    // MARK: Arguments

    @Test("arguments: a context registration of a factory taking arguments replaces the plain one while active")
    func argumentContextForm() throws {
        let container = Container()
        container.register(CFViewModel.self) { (id: String) in CFViewModel(id: id, tag: "live") }
        container.register(CFViewModel.self, in: .test) { (id: String) in CFViewModel(id: id, tag: "test") }
        container.register("pair", CFViewModel.self) { (id: String, n: Int) in CFViewModel(id: "\(id)\(n)", tag: "live")
        }
        container.register("pair", CFViewModel.self, in: .test) { (id: String, n: Int) in
            CFViewModel(id: "\(id)\(n)", tag: "test")
        }
        try Container.withContexts([.test]) { () throws in
            let model = try container.resolveOrThrow(CFViewModel.self, argument: "42")
            #expect(model.id == "42" && model.tag == "test")
            #expect(try container.resolveOrThrow("pair", CFViewModel.self, arguments: "a", 1).tag == "test")
        }
        try Container.withContexts(disabling: [.test]) { () throws in
            #expect(try container.resolveOrThrow(CFViewModel.self, argument: "42").tag == "live")
            #expect(try container.resolveOrThrow("pair", CFViewModel.self, arguments: "a", 1).id == "a1")
        }
        // A mismatch against the registration that applies is the usual error.
        _ = Container.withContexts([.test]) {
            #expect(throws: DIError.self) { try container.resolveOrThrow(CFViewModel.self, argument: 7) }
        }
        // The listing shows the context registration with its context.
        #expect(
            container.registrations.contains {
                ObjectIdentifier($0.type) == ObjectIdentifier(CFViewModel.self) && $0.context == .test
            })
    }

    @Test("arguments: shared lifetimes keep per-argument instances per context registration")
    func argumentContextSingletons() throws {
        let container = Container()
        container.register(CFViewModel.self, scope: .singleton) { (id: String) in CFViewModel(id: id, tag: "live") }
        container.register(CFViewModel.self, scope: .singleton, in: .test) { (id: String) in
            CFViewModel(id: id, tag: "test")
        }
        let (test, testAgain, testOther) = try Container.withContexts([.test]) { () throws in
            (
                try container.resolveOrThrow(CFViewModel.self, argument: "1"),
                try container.resolveOrThrow(CFViewModel.self, argument: "1"),
                try container.resolveOrThrow(CFViewModel.self, argument: "2")
            )
        }
        let live = try Container.withContexts(disabling: [.test]) { () throws in
            try container.resolveOrThrow(CFViewModel.self, argument: "1")
        }
        #expect(test === testAgain)
        #expect(test !== testOther)
        #expect(live !== test && live.tag == "live")
    }

    @Test("arguments: an inactive context registration without a plain one leaves the parent's in place")
    func argumentContextFallsBackToTheParent() throws {
        let parent = Container()
        parent.register(CFViewModel.self) { (id: String) in CFViewModel(id: id, tag: "parent") }
        let child = Container(parent: parent)
        let handle = child.register(CFViewModel.self, in: .custom("cf")) { (id: String) in
            CFViewModel(id: id, tag: "child custom")
        }
        #expect(try child.resolveOrThrow(CFViewModel.self, argument: "x").tag == "parent")
        try Container.withContexts([.custom("cf")]) { () throws in
            #expect(try child.resolveOrThrow(CFViewModel.self, argument: "x").tag == "child custom")
        }
        #expect(handle.context == .custom("cf"))
        handle.unregister()
        try Container.withContexts([.custom("cf")]) { () throws in
            #expect(try child.resolveOrThrow(CFViewModel.self, argument: "x").tag == "parent")
        }
    }

    @Test("arguments: registerAsync(in:) with arguments")
    func asyncArgumentContextForm() async throws {
        let container = Container()
        container.registerAsync(CFViewModel.self) { (id: String) in CFViewModel(id: id, tag: "live") }
        container.registerAsync(CFViewModel.self, in: .test) { (id: String) async in
            await Task.yield()
            return CFViewModel(id: id, tag: "test")
        }
        let test = try await Container.withContexts([.test]) {
            try await container.resolveAsync(CFViewModel.self, argument: "9")
        }
        let live = try await Container.withContexts(disabling: [.test]) {
            try await container.resolveAsync(CFViewModel.self, argument: "9")
        }
        #expect(test.tag == "test" && live.tag == "live" && test.id == "9")
    }

    // MARK: Autowiring

    @Test("autowiring: a context registration of an initializer replaces the plain one while active")
    func autowiredContextForm() throws {
        let container = Container()
        container.register(CFAPI.self) { CFAPI() }
        container.register(CFFixtures.self) { CFFixtures() }
        container.register(CFService.self, initializer: CFLiveService.init(api:))
        container.register(CFService.self, in: .test, initializer: CFMockService.init(fixtures:))
        container.register(CFService.self, in: .preview, initializer: CFPreviewService.init)
        container.register(CFService.self, name: "named", in: .test, initializer: CFMockService.init(fixtures:))
        try Container.withContexts([.test]) { () throws in
            #expect(try container.resolveOrThrow(CFService.self).tag == "mock")
            #expect(try container.resolveOrThrow("named", CFService.self).tag == "mock")
            // Its declared dependencies are the active entry's.
            #expect(
                container.declaredDependencies(of: CFService.self)?.map(\.description) == ["WeaveDITests.CFFixtures"])
        }
        try Container.withContexts([.test, .preview]) { () throws in
            #expect(try container.resolveOrThrow(CFService.self).tag == "preview", "preview takes precedence over test")
        }
        try Container.withContexts(disabling: [.test, .preview]) { () throws in
            #expect(try container.resolveOrThrow(CFService.self).tag == "live")
            #expect(container.declaredDependencies(of: CFService.self)?.map(\.description) == ["WeaveDITests.CFAPI"])
            #expect(container.resolve("named", CFService.self) == nil, "no plain registration under that name")
        }
        #expect(container.unregister(CFService.self, in: .test))
        try Container.withContexts([.test], exclusively: true) { () throws in
            #expect(try container.resolveOrThrow(CFService.self).tag == "live")
        }
    }

    @Test("autowiring: validate() and the graph read the declared dependencies of the entry that applies")
    func autowiredContextValidationAndGraph() throws {
        let container = Container()
        container.register(CFAPI.self) { CFAPI() }
        container.register(CFService.self, initializer: CFLiveService.init(api:))
        // The test variant needs fixtures, which are not registered.
        container.register(CFService.self, in: .test, initializer: CFMockService.init(fixtures:))

        let test = Container.withContexts([.test], exclusively: true) { container.validate() }
        let missing = try #require(test.missingDependencies.first)
        #expect(test.missingDependencies.count == 1)
        #expect(ObjectIdentifier(missing.missingType) == ObjectIdentifier(CFFixtures.self))
        #expect(missing.isDeclared && !missing.wasRequested, "known from the registration, not by building it")
        #expect(missing.description.contains("a parameter of its autowired initializer"))
        #expect(test.inactiveContextRegistrations == ["WeaveDITests.CFService (plain)"])

        let live = Container.withContexts(disabling: [.test]) { container.validate() }
        #expect(live.isValid, "\(live)")
        #expect(live.inactiveContextRegistrations == ["WeaveDITests.CFService in context test"])

        let graph = Container.withContexts([.test], exclusively: true) { container.dependencyGraph() }
        let service = try #require(graph.nodes(typeName: "WeaveDITests.CFService").first)
        #expect(service.context == "test")
        #expect(graph.dependencies(of: service.id).map(\.label) == ["CFFixtures"])
        #expect(graph.edges.first { $0.from == service.id }?.isDeclared == true)
        let liveGraph = Container.withContexts(disabling: [.test]) { container.dependencyGraph() }
        let liveService = try #require(liveGraph.nodes(typeName: "WeaveDITests.CFService").first)
        #expect(liveGraph.dependencies(of: liveService.id).map(\.label) == ["CFAPI"])
    }

    @Test("autowiring: registerAsync(in:initializer:)")
    func asyncAutowiredContextForm() async throws {
        let container = Container()
        container.register(CFAPI.self) { CFAPI() }
        container.registerAsync(CFFixtures.self) {
            await Task.yield()
            return CFFixtures()
        }
        container.registerAsync(CFService.self, initializer: CFLiveService.init(api:))
        container.registerAsync(CFService.self, in: .test, initializer: CFMockService.init(fixtures:))
        let test = try await Container.withContexts([.test]) { try await container.resolveAsync(CFService.self) }
        let live = try await Container.withContexts(disabling: [.test]) {
            try await container.resolveAsync(CFService.self)
        }
        #expect(test.tag == "mock" && live.tag == "live")
        let report = await Container.withContexts([.test]) { await container.validateAsync() }
        #expect(report.isValid, "\(report)")
    }

    // MARK: The release-build rule

    @Test("in a release build (detection off) the argument and autowired forms apply only when forced")
    func releaseBuildRuleForTheNewForms() throws {
        let container = Container()
        container.register(CFAPI.self) { CFAPI() }
        container.register(CFFixtures.self) { CFFixtures() }
        container.register(CFViewModel.self) { (id: String) in CFViewModel(id: id, tag: "live") }
        container.register(CFViewModel.self, in: .test) { (id: String) in CFViewModel(id: id, tag: "test") }
        container.register(CFViewModel.self, in: .argument("-mock")) { (id: String) in
            CFViewModel(id: id, tag: "argument")
        }
        container.register(CFService.self, initializer: CFLiveService.init(api:))
        container.register(CFService.self, in: .test, initializer: CFMockService.init(fixtures:))
        try ContextState.withSignals(everything, detects: false) { () throws in
            #expect(try container.resolveOrThrow(CFViewModel.self, argument: "1").tag == "live")
            #expect(try container.resolveOrThrow(CFService.self).tag == "live")
            try Container.withContexts([.test]) { () throws in
                #expect(try container.resolveOrThrow(CFViewModel.self, argument: "1").tag == "test")
                #expect(try container.resolveOrThrow(CFService.self).tag == "mock")
            }
        }
        try ContextState.withSignals(everything, detects: true) { () throws in
            #expect(try container.resolveOrThrow(CFViewModel.self, argument: "1").tag == "argument")
            #expect(try container.resolveOrThrow(CFService.self).tag == "mock")
        }
        // This build's own rule, as `detectsTestRun` states it.
        #if DEBUG
            #expect(try container.resolveOrThrow(CFService.self).tag == "mock")
        #else
            #expect(try container.resolveOrThrow(CFService.self).tag == "live")
            #expect(try container.resolveOrThrow(CFViewModel.self, argument: "1").tag == "live")
        #endif
    }

    // MARK: Multi-binding

    @Test(
        "contributions: a named context contribution replaces its plain one in place; an unnamed one joins while active"
    )
    func contributionContextForm() throws {
        let container = Container()
        container.register(into: CFPlugin.self, name: "analytics") { CFTagged(tag: "live analytics") }
        container.register(into: CFPlugin.self) { CFTagged(tag: "core") }
        let testAnalytics = container.register(into: CFPlugin.self, name: "analytics", in: .test) {
            CFTagged(tag: "test analytics")
        }
        container.register(into: CFPlugin.self, in: .debug) { CFTagged(tag: "debug menu") }
        func tags() -> [String] { container.resolveAll(CFPlugin.self).map(\.tag) }
        Container.withContexts([.test], exclusively: true) {
            #expect(tags() == ["test analytics", "core"])
        }
        Container.withContexts([.test, .debug], exclusively: true) {
            #expect(tags() == ["test analytics", "core", "debug menu"])
        }
        Container.withContexts(disabling: [.test, .debug]) {
            #expect(tags() == ["live analytics", "core"])
            let report = container.validate()
            #expect(report.isValid, "\(report)")
            // As for plain context registrations: the inactive variant of a registered name is
            // listed; a context-only contribution that does not apply is not a registration here.
            #expect(report.inactiveContextRegistrations == ["WeaveDITests.CFPlugin[\"analytics\"] in context test"])
        }
        // The release-build rule: detection off, only what is forced applies.
        ContextState.withSignals(everything, detects: false) {
            #expect(tags() == ["live analytics", "core"])
            Container.withContexts([.debug]) { #expect(tags() == ["live analytics", "core", "debug menu"]) }
        }
        testAnalytics.unregister()
        Container.withContexts([.test], exclusively: true) {
            #expect(tags() == ["live analytics", "core"])
        }
    }

    @Test("contributions: registerAsync(into:in:) and child containers")
    func asyncContributionContextForm() async throws {
        let parent = Container()
        parent.register(into: CFPlugin.self) { CFTagged(tag: "parent") }
        let child = Container(parent: parent)
        child.registerAsync(into: CFPlugin.self, in: .custom("cf-async")) {
            await Task.yield()
            return CFTagged(tag: "child async")
        }
        let active = try await Container.withContexts([.custom("cf-async")]) {
            try await child.resolveAllAsync(CFPlugin.self).map(\.tag)
        }
        let inactive = try await child.resolveAllAsync(CFPlugin.self).map(\.tag)
        #expect(active == ["parent", "child async"])
        #expect(inactive == ["parent"])
        #expect(child.resolveAll(CFPlugin.self).map(\.tag) == ["parent"])
    }
}
