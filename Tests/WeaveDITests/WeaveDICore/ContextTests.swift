import Foundation
import Testing
import WeaveDIDiagnostics
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

private protocol CtxAPIClient: AnyObject, Sendable { var tag: String { get } }
private final class CtxClient: CtxAPIClient {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}
private protocol CtxStore: Sendable { var client: any CtxAPIClient { get } }
private final class CtxStoreImpl: CtxStore {
    let client: any CtxAPIClient
    init(client: any CtxAPIClient) { self.client = client }
}
private final class CtxDisposable: CtxAPIClient, AsyncDisposable {
    let tag: String
    let disposed: Recorder<String>
    init(_ tag: String, disposed: Recorder<String>) {
        self.tag = tag
        self.disposed = disposed
    }
    func dispose(reason: DisposalReason) async { disposed.append(tag) }
}
private final class CtxDecorated: CtxAPIClient {
    let inner: any CtxAPIClient
    init(_ inner: any CtxAPIClient) { self.inner = inner }
    var tag: String { "decorated(\(inner.tag))" }
}

extension Container {
    fileprivate static let ctxClientKey = Factory<any CtxAPIClient> { CtxClient("default") }
    fileprivate static let ctxSingletonKey = Factory<any CtxAPIClient>(scope: .singleton) { CtxClient("default") }
}

/// Signals of a process that is not a test run, launched with `arguments`.
private func signals(
    test: Bool = false, preview: Bool = false, debug: Bool = false, arguments: Set<String> = []
) -> ProcessSignals {
    ProcessSignals(isTest: test, isPreview: preview, isDebugBuild: debug, arguments: arguments)
}

/// A container with a plain registration and one per context, each tagged with its context.
private func containerWithEveryContext() -> Container {
    let container = Container()
    container.register(CtxAPIClient.self) { CtxClient("live") }
    container.register(CtxAPIClient.self, in: .debug) { CtxClient("debug") }
    container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
    container.register(CtxAPIClient.self, in: .preview) { CtxClient("preview") }
    container.register(CtxAPIClient.self, in: .custom("demo")) { CtxClient("demo") }
    container.register(CtxAPIClient.self, in: .argument("-mock")) { CtxClient("argument") }
    return container
}

@Suite("Registration contexts", .capturesLog)
struct ContextTests {
    // MARK: Detection

    @Test("this `swift test` run is detected as a test run, by the detection InjectedKey uses")
    func detectsTestRun() {
        #expect(ProcessSignals.process.isTest)
        #expect(RegistrationContext.test.isDetected)
        #expect(!RegistrationContext.preview.isDetected)
        #expect(InjectedValues.Context.current == .test)
        #if DEBUG
            // A debug build: detection counts, so `.test` and `.debug` are active.
            #expect(Container.detectsContexts)
            #expect(RegistrationContext.test.isActive)
            #expect(RegistrationContext.debug.isActive)
        #else
            // A release build (`swift test -c release`): nothing is active unless asked for.
            #expect(!Container.detectsContexts)
            #expect(!RegistrationContext.test.isActive)
            #expect(!RegistrationContext.debug.isDetected)
        #endif
    }

    @Test("a .test registration applies in this test run (debug build) and the plain one otherwise")
    func testRegistrationAppliesUnderSwiftTest() throws {
        let container = Container()
        container.register(CtxAPIClient.self) { CtxClient("live") }
        container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
        #if DEBUG
            #expect(try container.resolveOrThrow(CtxAPIClient.self).tag == "test")
        #else
            #expect(try container.resolveOrThrow(CtxAPIClient.self).tag == "live")
        #endif
        Container.withContexts(disabling: [.test]) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "live")
        }
        Container.withContexts([.test]) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "test")
        }
    }

    @Test("the test-runner signals each suffice (the XCTest variables alone are absent under swift test)")
    func testSignals() {
        func isTest(_ environment: [String: String] = [:], process: String = "MyApp", arguments: [String] = []) -> Bool
        {
            ProcessSignals.isTestRun(
                environment: environment, processName: process, arguments: arguments, isTypeLoaded: { _ in false })
        }
        #expect(!isTest())
        #expect(isTest(process: "WeaveDIPackageTests.xctest")) // swift test on Linux
        #expect(isTest(process: "swiftpm-testing-helper")) // swift test's Swift Testing run on macOS
        #expect(isTest(process: "xctest")) // swift test's XCTest run on macOS
        #expect(isTest(arguments: ["/x/WeaveDIPackageTests", "--testing-library", "swift-testing"]))
        #expect(isTest(["XCTestConfigurationFilePath": "/tmp/x"]))
        #expect(ProcessSignals.isPreview(environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"]))
        #expect(!ProcessSignals.isPreview(environment: ["XCODE_RUNNING_FOR_PREVIEWS": "0"]))
    }

    @Test("a launch argument activates its context (arguments injected through the signals seam)")
    func launchArgument() throws {
        let container = Container()
        container.register(CtxAPIClient.self) { CtxClient("live") }
        container.register(CtxAPIClient.self, in: .argument("-mockAPI")) { CtxClient("mock") }
        ContextState.withSignals(signals(arguments: ["/bin/app", "-mockAPI"]), detects: true) {
            #expect(RegistrationContext.argument("-mockAPI").isActive)
            #expect(container.resolve(CtxAPIClient.self)?.tag == "mock")
        }
        ContextState.withSignals(signals(arguments: ["/bin/app", "-mockAPIs"]), detects: true) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "live")
        }
        ContextState.withSignals(signals(preview: true), detects: true) {
            #expect(RegistrationContext.preview.isActive)
            #expect(!RegistrationContext.test.isActive)
        }
    }

    @Test("in a release build (detection off) detected contexts stay inactive unless declared or forced")
    func releaseBuildRule() {
        let container = containerWithEveryContext()
        let everything = signals(test: true, preview: true, debug: true, arguments: ["-mock"])
        ContextState.withSignals(everything, detects: false) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "live")
            Container.withContexts([.test]) {
                #expect(container.resolve(CtxAPIClient.self)?.tag == "test")
            }
        }
        ContextState.withSignals(everything, detects: true) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "argument")
        }
    }

    // MARK: Precedence and forcing

    @Test("precedence: argument, custom, preview, test, debug, then the plain registration")
    func precedence() {
        let container = containerWithEveryContext()
        func winner(_ contexts: Set<RegistrationContext>) -> String? {
            Container.withContexts(contexts, exclusively: true) { container.resolve(CtxAPIClient.self)?.tag }
        }
        #expect(winner([]) == "live")
        #expect(winner([.debug]) == "debug")
        #expect(winner([.debug, .test]) == "test")
        #expect(winner([.debug, .test, .preview]) == "preview")
        #expect(winner([.debug, .test, .preview, .custom("demo")]) == "demo")
        #expect(winner([.debug, .test, .preview, .custom("demo"), .argument("-mock")]) == "argument")
        #expect(winner([.argument("-other")]) == "live")
    }

    @Test("forcing is per task: parallel tasks forcing different contexts each see their own")
    func forcingIsPerTask() async {
        let container = Container()
        container.register(CtxAPIClient.self) { CtxClient("live") }
        container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
        container.register(CtxAPIClient.self, in: .preview) { CtxClient("preview") }
        let wrong = Counter()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<60 {
                group.addTask {
                    let contexts: Set<RegistrationContext> = [[], [.test], [.preview]][index % 3]
                    let expected = ["live", "test", "preview"][index % 3]
                    await Container.withContexts(contexts, exclusively: true) {
                        for _ in 0..<50 {
                            await Task.yield()
                            if container.resolve(CtxAPIClient.self)?.tag != expected { wrong.increment() }
                            // A child task inherits the forcing.
                            let child = await Task { container.resolve(CtxAPIClient.self)?.tag }.value
                            if child != expected { wrong.increment() }
                        }
                    }
                }
            }
        }
        #expect(wrong.value == 0)
    }

    @Test("nested forcing changes only what it names; declared contexts apply process-wide unless forced off")
    func nestingAndDeclaration() {
        let container = containerWithEveryContext()
        Container.withContexts([.test], exclusively: true) {
            Container.withContexts([.preview]) {
                #expect(container.resolve(CtxAPIClient.self)?.tag == "preview")
                Container.withContexts(disabling: [.preview]) {
                    #expect(container.resolve(CtxAPIClient.self)?.tag == "test")
                }
            }
        }
        // A custom context no other test uses, declared for the process.
        let declared = RegistrationContext.custom("ctx-tests-declared")
        container.register(CtxAPIClient.self, in: declared) { CtxClient("declared") }
        Container.declaredContexts.insert(declared)
        defer { Container.declaredContexts.remove(declared) }
        #expect(declared.isActive)
        Container.withContexts([.debug], exclusively: true) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "debug")
        }
        Container.withContexts(disabling: [.argument("-mock")]) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "declared")
        }
    }

    // MARK: Lifetimes, names, handles

    @Test("a singleton registered for .test is its own instance, distinct from the plain singleton")
    func lifetimes() throws {
        let container = Container()
        container.register(CtxAPIClient.self, scope: .singleton) { CtxClient("live") }
        container.register(CtxAPIClient.self, scope: .singleton, in: .test) { CtxClient("test") }
        let (test1, test2) = try Container.withContexts([.test]) {
            (try container.resolveOrThrow(CtxAPIClient.self), try container.resolveOrThrow(CtxAPIClient.self))
        }
        let (live1, live2) = try Container.withContexts(disabling: [.test]) {
            (try container.resolveOrThrow(CtxAPIClient.self), try container.resolveOrThrow(CtxAPIClient.self))
        }
        #expect(test1 === test2 && live1 === live2)
        #expect(test1 !== live1)
        #expect(test1.tag == "test" && live1.tag == "live")
        // A transient registered for .test beside a plain singleton.
        container.register(CtxAPIClient.self, scope: .transient, in: .preview) { CtxClient("preview") }
        Container.withContexts([.preview]) {
            #expect(container.resolve(CtxAPIClient.self) !== container.resolve(CtxAPIClient.self))
        }
    }

    @Test("shutdown disposes the singletons of the plain and of each context registration")
    func disposal() async {
        let container = Container()
        let disposed = Recorder<String>()
        container.register(CtxAPIClient.self, scope: .singleton) { CtxDisposable("live", disposed: disposed) }
        container.register(CtxAPIClient.self, scope: .singleton, in: .test) {
            CtxDisposable("test", disposed: disposed)
        }
        _ = Container.withContexts([.test]) { container.resolve(CtxAPIClient.self) }
        _ = Container.withContexts(disabling: [.test]) { container.resolve(CtxAPIClient.self) }
        await container.disposeSingletons()
        #expect(Set(disposed.all) == ["live", "test"])
    }

    @Test("custom scopes: the plain and the .test registration keep separate instances in one scope instance")
    func customScope() {
        let container = Container()
        container.register(CtxAPIClient.self, scope: .request) { CtxClient("live") }
        container.register(CtxAPIClient.self, scope: .request, in: .test) { CtxClient("test") }
        container.withScope(.request) {
            let test = Container.withContexts([.test]) { container.resolve(CtxAPIClient.self) }
            let live = Container.withContexts(disabling: [.test]) { container.resolve(CtxAPIClient.self) }
            #expect(test?.tag == "test" && live?.tag == "live")
            #expect(Container.withContexts([.test]) { container.resolve(CtxAPIClient.self) } === test)
            #expect(Container.withContexts(disabling: [.test]) { container.resolve(CtxAPIClient.self) } === live)
        }
    }

    @Test("names: a context registration applies to its own name only")
    func names() {
        let container = Container()
        container.register("primary", CtxAPIClient.self) { CtxClient("primary") }
        container.register("primary", CtxAPIClient.self, in: .test) { CtxClient("primary-test") }
        container.register(CtxAPIClient.self) { CtxClient("unnamed") }
        Container.withContexts([.test]) {
            #expect(container.resolve("primary", CtxAPIClient.self)?.tag == "primary-test")
            #expect(container.resolve(CtxAPIClient.self)?.tag == "unnamed")
        }
    }

    @Test("other names of a type with a context registration register, replace and unregister as before")
    func otherNamesOfTheType() {
        let container = Container()
        container.register("a", CtxAPIClient.self, in: .test) { CtxClient("a-test") }
        container.register("b", CtxAPIClient.self) { CtxClient("b1") }
        let second = container.register("b", CtxAPIClient.self) { CtxClient("b2") }
        #expect(container.resolve("b", CtxAPIClient.self)?.tag == "b2")
        #expect(container.registrations.filter { $0.name == "b" }.count == 1)
        #expect(second.unregister())
        #expect(container.resolve("b", CtxAPIClient.self) == nil)
        Container.withContexts([.test]) { #expect(container.resolve("a", CtxAPIClient.self)?.tag == "a-test") }
    }

    @Test("handles remove their own registration; re-registering a context replaces only that context's")
    func handlesAndReplacement() {
        let container = Container()
        let plain = container.register(CtxAPIClient.self) { CtxClient("live") }
        let test = container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
        #expect(test.context == .test && plain.context == nil)
        container.register(CtxAPIClient.self, in: .test) { CtxClient("test 2") }
        Container.withContexts([.test]) { #expect(container.resolve(CtxAPIClient.self)?.tag == "test 2") }
        // The first .test handle was replaced: it removes nothing.
        #expect(!test.unregister())
        #expect(plain.unregister())
        Container.withContexts([.test]) { #expect(container.resolve(CtxAPIClient.self)?.tag == "test 2") }
        Container.withContexts(disabling: [.test]) {
            #expect(container.resolve(CtxAPIClient.self) == nil)
            #expect(!container.isRegistered(CtxAPIClient.self))
        }
        container.register(CtxAPIClient.self) { CtxClient("live 2") }
        #expect(container.unregister(CtxAPIClient.self, in: .test))
        Container.withContexts([.test]) { #expect(container.resolve(CtxAPIClient.self)?.tag == "live 2") }
        let listed = container.registrations
        #expect(listed.count == 1 && listed[0].context == nil)
    }

    @Test("registrations list each context registration with its context")
    func listing() {
        let container = Container()
        container.register(CtxAPIClient.self) { CtxClient("live") }
        container.register(CtxAPIClient.self, scope: .singleton, in: .test) { CtxClient("test") }
        let listed = container.registrations
        #expect(listed.map(\.context) == [nil, .test])
        #expect(listed[1].scope == .singleton)
        #expect(listed[1].description.contains("in context test"))
    }

    @Test("the duplicate policy applies per context")
    func duplicatePolicy() {
        let container = Container()
        container.duplicatePolicy = .reject
        container.register(CtxAPIClient.self) { CtxClient("live") }
        let test = container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
        let refused = container.register(CtxAPIClient.self, in: .test) { CtxClient("test 2") }
        #expect(!refused.unregister())
        Container.withContexts([.test]) { #expect(container.resolve(CtxAPIClient.self)?.tag == "test") }
        #expect(test.unregister())
    }

    // MARK: Child containers, decorators, async

    @Test("child containers: a child's context registration applies to the child; inactive, the parent's serves")
    func childContainers() {
        let parent = Container()
        parent.register(CtxAPIClient.self) { CtxClient("parent live") }
        let child = Container(parent: parent)
        child.register(CtxAPIClient.self, in: .test) { CtxClient("child test") }
        Container.withContexts([.test]) {
            #expect(child.resolve(CtxAPIClient.self)?.tag == "child test")
            #expect(parent.resolve(CtxAPIClient.self)?.tag == "parent live")
        }
        Container.withContexts(disabling: [.test]) {
            #expect(child.resolve(CtxAPIClient.self)?.tag == "parent live")
        }
        // A parent's context registration serves a child that registers nothing.
        parent.register(CtxAPIClient.self, in: .preview) { CtxClient("parent preview") }
        let other = Container(parent: parent)
        Container.withContexts([.preview]) { #expect(other.resolve(CtxAPIClient.self)?.tag == "parent preview") }
    }

    @Test("decorators apply to a context registration as to the plain one")
    func decorators() {
        let container = Container()
        container.register(CtxAPIClient.self) { CtxClient("live") }
        container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
        container.decorate(CtxAPIClient.self) { CtxDecorated($0) }
        Container.withContexts([.test]) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "decorated(test)")
        }
        Container.withContexts(disabling: [.test]) {
            #expect(container.resolve(CtxAPIClient.self)?.tag == "decorated(live)")
        }
    }

    @Test("async factories: registerAsync(in:) and a sync context registration over an async plain one")
    func asyncRegistrations() async throws {
        let container = Container()
        container.registerAsync(CtxAPIClient.self, scope: .singleton) { CtxClient("live") }
        container.registerAsync(CtxAPIClient.self, scope: .singleton, in: .test) { CtxClient("test") }
        container.register(CtxAPIClient.self, in: .preview) { CtxClient("preview") }
        let test = try await Container.withContexts([.test]) { try await container.resolveAsync(CtxAPIClient.self) }
        let again = try await Container.withContexts([.test]) { try await container.resolveAsync(CtxAPIClient.self) }
        let live = try await Container.withContexts(disabling: [.test]) {
            try await container.resolveAsync(CtxAPIClient.self)
        }
        #expect(test.tag == "test" && test === again && live.tag == "live")
        let preview = try await Container.withContexts([.preview]) {
            try await container.resolveAsync(CtxAPIClient.self)
        }
        #expect(preview.tag == "preview")
        // Synchronously, the async .test registration needs resolveAsync.
        let failure = Container.withContexts([.test]) { () -> DIError? in
            do {
                _ = try container.resolveOrThrow(CtxAPIClient.self)
                return nil
            } catch { return error as? DIError }
        }
        guard case .asyncResolutionRequired? = failure else {
            Issue.record("expected asyncResolutionRequired, got \(String(describing: failure))")
            return
        }
    }

    @Test("UnifiedDI registers context registrations in the shared container")
    func unifiedDI() {
        let container = Container()
        Container.withShared(container) {
            UnifiedDI.register(CtxAPIClient.self) { CtxClient("live") }
            UnifiedDI.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
            UnifiedDI.register("named", CtxAPIClient.self, in: .preview) { CtxClient("preview") }
            Container.withContexts([.test]) { #expect(UnifiedDI.resolve(CtxAPIClient.self)?.tag == "test") }
            Container.withContexts(disabling: [.test]) { #expect(UnifiedDI.resolve(CtxAPIClient.self)?.tag == "live") }
            Container.withContexts([.preview]) {
                #expect(container.resolve("named", CtxAPIClient.self)?.tag == "preview")
            }
        }
    }

    // MARK: Factory keys

    @Test("Factory keys: onTest, onPreview, onDebug and onArg replace the default while their context is active")
    func factoryKeys() {
        let container = Container()
        Container.ctxClientKey
            .onTest(in: container) { CtxClient("test") }
            .onPreview(in: container) { CtxClient("preview") }
            .onDebug(in: container) { CtxClient("debug") }
            .onArg("-mock", in: container) { CtxClient("argument") }
        func tag(_ contexts: Set<RegistrationContext>) -> String {
            Container.withContexts(contexts, exclusively: true) { Container.ctxClientKey.resolve(in: container).tag }
        }
        #expect(tag([]) == "default")
        #expect(tag([.test]) == "test")
        #expect(tag([.preview, .test]) == "preview")
        #expect(tag([.debug]) == "debug")
        #expect(tag([.argument("-mock"), .preview]) == "argument")
        // A plain registration replaces the default, and the context one still wins while active.
        Container.ctxClientKey.register(in: container) { CtxClient("registered") }
        #expect(tag([]) == "registered")
        #expect(tag([.test]) == "test")
        #expect(Container.ctxClientKey.reset(.test, in: container))
        #expect(tag([.test]) == "registered")
    }

    @Test("Factory keys: onTest of a singleton key is a singleton of its own")
    func factoryKeySingleton() {
        let container = Container()
        Container.ctxSingletonKey.onTest(in: container) { CtxClient("test") }
        let test = Container.withContexts([.test]) { Container.ctxSingletonKey.resolve(in: container) }
        let live = Container.withContexts(disabling: [.test]) { Container.ctxSingletonKey.resolve(in: container) }
        #expect(test.tag == "test" && live.tag == "default")
        #expect(Container.withContexts([.test]) { Container.ctxSingletonKey.resolve(in: container) } === test)
        #expect(
            Container.withContexts(disabling: [.test]) { Container.ctxSingletonKey.resolve(in: container) } === live)
    }

    // MARK: Diagnostics

    @Test("validate() builds the registration that applies and lists the inactive ones")
    func validation() {
        let container = Container()
        container.register(CtxAPIClient.self) { CtxClient("live") }
        // Under .test the store needs a dependency nobody registered.
        container.register(CtxStore.self) { try CtxStoreImpl(client: container.resolveOrThrow(CtxAPIClient.self)) }
        container.register(CtxStore.self, in: .test) {
            try CtxStoreImpl(client: container.resolveOrThrow("missing", CtxAPIClient.self))
        }
        let live = Container.withContexts(disabling: [.test]) { container.validate() }
        #expect(live.isValid)
        #expect(
            live.inactiveContextRegistrations.contains { $0.contains("CtxStore") && $0.contains("in context test") })
        let test = Container.withContexts([.test]) { container.validate() }
        #expect(!test.isValid)
        #expect(test.inactiveContextRegistrations.contains { $0.contains("CtxStore") && $0.contains("(plain)") })
        #expect(test.description.contains("Not built (contexts not active)"))
    }

    @Test("the graph shows which context's registration applies and which are inactive")
    func graph() throws {
        let container = Container()
        container.register(CtxAPIClient.self, scope: .singleton) { CtxClient("live") }
        container.register(CtxAPIClient.self, in: .test) { CtxClient("test") }
        container.register(CtxStore.self) { try CtxStoreImpl(client: container.resolveOrThrow(CtxAPIClient.self)) }
        let report = Container.withContexts([.test], exclusively: true) { container.validate() }
        let node = try #require(report.graph.nodes.first { $0.typeName.contains("CtxAPIClient") })
        #expect(node.context == "test")
        #expect(node.scope == "transient")
        #expect(node.inactiveContexts == ["plain"])
        #expect(report.graph.dot().contains("context test (inactive: plain)"))
        let store = try #require(report.graph.nodes.first { $0.typeName.contains("CtxStore") })
        #expect(store.context == nil && store.inactiveContexts == nil)
        let live = Container.withContexts(disabling: [.test]) { container.dependencyGraph() }
        let liveNode = try #require(live.nodes.first { $0.typeName.contains("CtxAPIClient") })
        #expect(liveNode.context == nil && liveNode.scope == "singleton" && liveNode.inactiveContexts == ["test"])
    }
}
