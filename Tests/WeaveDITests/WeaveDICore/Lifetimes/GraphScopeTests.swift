import Foundation
import Synchronization
import Testing
import WeaveDIDiagnostics
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// `Scope.graph`: one instance per outermost resolution, shared by every factory it runs (sync,
// async, `async let` children), a new one for the next, never shared between concurrent ones,
// released when the outermost resolution ends.

/// The graph-scoped type: counts its instances.
private final class GSNode: Sendable {
    static let serials = Atomic<Int>(0)
    let serial = GSNode.serials.add(1, ordering: .relaxed).newValue
}

private final class GSLeft: Sendable {
    let node: GSNode
    init(node: GSNode) { self.node = node }
}

private final class GSRight: Sendable {
    let node: GSNode
    init(node: GSNode) { self.node = node }
}

/// A depends on B and C, both depend on G.
private final class GSRoot: Sendable {
    let left: GSLeft
    let right: GSRight
    init(left: GSLeft, right: GSRight) {
        self.left = left
        self.right = right
    }
    var shares: Bool { left.node === right.node }
}

/// A graph-scoped type whose instances are disposable (the container never disposes them).
private final class GSResource: AsyncDisposable {
    let disposals = Counter()
    func dispose(reason: DisposalReason) async { disposals.increment() }
}

private protocol GSPlugin: Sendable { var node: GSNode { get } }
private struct GSPluginImpl: GSPlugin { let node: GSNode }

/// One value per argument, in a graph.
private final class GSTagged: Sendable {
    let tag: String
    init(tag: String) { self.tag = tag }
}

/// A weak reference a factory can set.
private final class WeakGSNode: @unchecked Sendable {
    weak var value: GSNode?
}

private final class GSCycleA: Sendable {}
private final class GSCycleB: Sendable {}

extension Container {
    fileprivate static let gsNodeKey = Factory(scope: .graph) { GSNode() }
    fileprivate static let gsRootKey = Factory {
        GSRoot(
            left: GSLeft(node: Container.gsNodeKey()), right: GSRight(node: Container.gsNodeKey()))
    }
}

/// Registers A → (B, C) → G, with G graph-scoped and the others transient.
private func diamond(_ container: Container = Container()) -> Container {
    container.register(GSNode.self, scope: .graph) { GSNode() }
    container.register(GSLeft.self) { GSLeft(node: try container.resolveOrThrow(GSNode.self)) }
    container.register(GSRight.self) { GSRight(node: try container.resolveOrThrow(GSNode.self)) }
    container.register(GSRoot.self) {
        GSRoot(left: try container.resolveOrThrow(GSLeft.self), right: try container.resolveOrThrow(GSRight.self))
    }
    return container
}

/// The same diamond with async factories: A builds B and C in `async let` child tasks.
private func asyncDiamond(graphNodeIsAsync: Bool) -> Container {
    let container = Container()
    if graphNodeIsAsync {
        container.registerAsync(GSNode.self, scope: .graph) {
            await Task.yield()
            return GSNode()
        }
    } else {
        container.register(GSNode.self, scope: .graph) { GSNode() }
    }
    container.registerAsync(GSLeft.self) { GSLeft(node: try await container.resolveAsync(GSNode.self)) }
    container.registerAsync(GSRight.self) {
        await Task.yield()
        return GSRight(node: try await container.resolveAsync(GSNode.self))
    }
    container.registerAsync(GSRoot.self) {
        async let left = container.resolveAsync(GSLeft.self)
        async let right = container.resolveAsync(GSRight.self)
        return GSRoot(left: try await left, right: try await right)
    }
    return container
}

@Suite("Graph scope", .capturesLog)
struct GraphScopeTests {
    // MARK: One instance per outermost resolution

    @Test func factoriesOfOneResolutionShareTheInstance() throws {
        let container = diamond()
        let root = try container.resolveOrThrow(GSRoot.self)
        #expect(root.shares, "B and C got the same G")
        let viaResolve = try #require(container.resolve(GSRoot.self))
        #expect(viaResolve.shares)
    }

    @Test func theNextOutermostResolutionGetsANewInstance() throws {
        let container = diamond()
        let first = try container.resolveOrThrow(GSRoot.self)
        let second = try container.resolveOrThrow(GSRoot.self)
        #expect(first.left.node !== second.left.node)
        let direct1 = try container.resolveOrThrow(GSNode.self)
        let direct2 = try container.resolveOrThrow(GSNode.self)
        #expect(direct1 !== direct2, "each top-level resolution of G is its own graph")
    }

    @Test func namedRegistrationsAreSharedPerName() throws {
        let container = Container()
        container.register("primary", GSNode.self, scope: .graph) { GSNode() }
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(GSRoot.self) {
            let first = try container.resolveOrThrow("primary", GSNode.self)
            let again = try container.resolveOrThrow("primary", GSNode.self)
            #expect(first === again)
            let unnamed = try container.resolveOrThrow(GSNode.self)
            #expect(unnamed !== first, "the named and the unnamed registration are two registrations")
            return GSRoot(left: GSLeft(node: first), right: GSRight(node: again))
        }
        #expect(try container.resolveOrThrow(GSRoot.self).shares)
    }

    @Test func aGraphScopedFactoryResolvingDeeperSharesItsOwnGraph() throws {
        // The outermost resolution is of a graph-scoped type itself.
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(GSLeft.self, scope: .graph) { GSLeft(node: try container.resolveOrThrow(GSNode.self)) }
        container.register(GSRight.self, scope: .graph) {
            GSRight(node: try container.resolveOrThrow(GSNode.self))
        }
        container.register(GSRoot.self, scope: .graph) {
            GSRoot(
                left: try container.resolveOrThrow(GSLeft.self), right: try container.resolveOrThrow(GSRight.self))
        }
        let first = try container.resolveOrThrow(GSRoot.self)
        let second = try container.resolveOrThrow(GSRoot.self)
        #expect(first.shares && second.shares)
        #expect(first !== second && first.left.node !== second.left.node)
    }

    // MARK: Async

    @Test(arguments: [false, true])
    func asyncFactoriesAndAsyncLetChildrenShareTheInstance(graphNodeIsAsync: Bool) async throws {
        let container = asyncDiamond(graphNodeIsAsync: graphNodeIsAsync)
        var roots: [GSRoot] = [] // kept, so no identifier is reused
        for _ in 0..<20 {
            let root = try await container.resolveAsync(GSRoot.self)
            #expect(root.shares, "both async let children got the same G")
            roots.append(root)
        }
        #expect(Set(roots.map { ObjectIdentifier($0.left.node) }).count == 20, "a new G for every resolveAsync")
    }

    @Test func aSynchronousFactoryInsideAnAsyncOneUsesTheAsyncGraph() async throws {
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(GSLeft.self) { GSLeft(node: try container.resolveOrThrow(GSNode.self)) }
        container.registerAsync(GSRight.self) { GSRight(node: try await container.resolveAsync(GSNode.self)) }
        container.registerAsync(GSRoot.self) {
            async let right = container.resolveAsync(GSRight.self)
            let left = try container.resolveOrThrow(GSLeft.self)
            return GSRoot(left: left, right: try await right)
        }
        #expect(try await container.resolveAsync(GSRoot.self).shares)
    }

    @Test func taskGroupChildrenShareTheInstance() async throws {
        let container = asyncDiamond(graphNodeIsAsync: true)
        container.registerAsync(GSRoot.self) {
            let nodes = try await withThrowingTaskGroup(of: GSNode.self) { group in
                for _ in 0..<4 { group.addTask { try await container.resolveAsync(GSNode.self) } }
                var all: [GSNode] = []
                for try await node in group { all.append(node) }
                return all
            }
            #expect(nodes.allSatisfy { $0 === nodes[0] })
            return GSRoot(left: GSLeft(node: nodes[0]), right: GSRight(node: nodes[3]))
        }
        #expect(try await container.resolveAsync(GSRoot.self).shares)
    }

    @Test func anAsyncOutermostGraphScopedResolutionSharesItsGraphWithWhatItResolves() async throws {
        let container = Container()
        container.registerAsync(GSNode.self, scope: .graph) { GSNode() }
        container.registerAsync(GSRoot.self, scope: .graph) {
            async let left = GSLeft(node: container.resolveAsync(GSNode.self))
            async let right = GSRight(node: container.resolveAsync(GSNode.self))
            return GSRoot(left: try await left, right: try await right)
        }
        let first = try await container.resolveAsync(GSRoot.self)
        let second = try await container.resolveAsync(GSRoot.self)
        #expect(first.shares && second.shares)
        #expect(first !== second)
    }

    @Test func unstructuredTasksShareTheGraphOnlyWhileTheOutermostFactoryRuns() async throws {
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        let later = LockedValue<Task<GSNode, any Error>?>(nil)
        let gate = AsyncStream<Void>.makeStream()
        container.registerAsync(GSRoot.self) {
            let own = try await container.resolveAsync(GSNode.self)
            // A Task {} inherits the path: while this factory runs, it is inside this resolution.
            let inherited = try await Task { try await container.resolveAsync(GSNode.self) }.value
            // A detached task inherits nothing: a resolution of its own.
            let detached = try await Task.detached { try await container.resolveAsync(GSNode.self) }.value
            #expect(inherited === own)
            #expect(detached !== own)
            // A Task {} still running after this factory returned: its resolutions are outermost.
            later.withLock {
                $0 = Task {
                    for await _ in gate.stream { break }
                    return try await container.resolveAsync(GSNode.self)
                }
            }
            return GSRoot(left: GSLeft(node: own), right: GSRight(node: inherited))
        }
        let root = try await container.resolveAsync(GSRoot.self)
        #expect(root.shares)
        gate.continuation.yield()
        let task = try #require(later.withLock { $0 })
        let afterwards = try await task.value
        #expect(afterwards !== root.left.node)
    }

    // MARK: Concurrency

    @Test func concurrentOutermostResolutionsOnThreadsNeverShare() {
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(GSLeft.self) { GSLeft(node: try container.resolveOrThrow(GSNode.self)) }
        container.register(GSRight.self) {
            // Widen the window in which another thread's resolution runs.
            for _ in 0..<50 { sched_yield() }
            return GSRight(node: try container.resolveOrThrow(GSNode.self))
        }
        container.register(GSRoot.self) {
            GSRoot(
                left: try container.resolveOrThrow(GSLeft.self), right: try container.resolveOrThrow(GSRight.self))
        }
        let nodes = LockedValue<[ObjectIdentifier]>([])
        let retained = LockedValue<[GSRoot]>([])
        let broken = Atomic<Int>(0)
        runConcurrently(threads: 4) { _ in
            for _ in 0..<200 {
                guard let root = container.resolve(GSRoot.self) else { continue }
                if !root.shares { broken.add(1, ordering: .relaxed) }
                nodes.withLock { $0.append(ObjectIdentifier(root.left.node)) }
                retained.withLock { $0.append(root) } // keeps identifiers unique
            }
        }
        #expect(broken.load(ordering: .relaxed) == 0)
        let all = nodes.withLock { $0 }
        #expect(all.count == 800)
        #expect(Set(all).count == 800, "no two outermost resolutions shared a G")
    }

    @Test func concurrentOutermostAsyncResolutionsNeverShare() async throws {
        let container = asyncDiamond(graphNodeIsAsync: true)
        let roots = try await withThrowingTaskGroup(of: GSRoot.self) { group in
            for _ in 0..<64 { group.addTask { try await container.resolveAsync(GSRoot.self) } }
            var all: [GSRoot] = []
            for try await root in group { all.append(root) }
            return all
        }
        #expect(roots.allSatisfy { $0.shares })
        #expect(Set(roots.map { ObjectIdentifier($0.left.node) }).count == 64)
    }

    // MARK: Release

    @Test func theGraphIsReleasedWhenTheOutermostResolutionEnds() throws {
        let container = diamond()
        weak var node: GSNode?
        do {
            let root = try container.resolveOrThrow(GSRoot.self)
            node = root.left.node
            #expect(node != nil)
        }
        #expect(node == nil, "nothing but the resolved objects held G")
        weak var direct: GSNode?
        do { direct = try container.resolveOrThrow(GSNode.self) }
        #expect(direct == nil)
    }

    @Test func theAsyncGraphIsReleasedWhenTheOutermostResolutionEnds() async throws {
        for graphNodeIsAsync in [false, true] {
            let container = asyncDiamond(graphNodeIsAsync: graphNodeIsAsync)
            weak var node: GSNode?
            do {
                let root = try await container.resolveAsync(GSRoot.self)
                node = root.left.node
            }
            #expect(node == nil)
        }
    }

    @Test func aFailedOutermostResolutionReleasesItsGraph() throws {
        struct Refused: Error {}
        let container = Container()
        let node = WeakGSNode()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(GSRoot.self) {
            node.value = try container.resolveOrThrow(GSNode.self)
            throw Refused()
        }
        #expect(throws: DIError.self) { try container.resolveOrThrow(GSRoot.self) }
        #expect(node.value == nil)
    }

    @Test func theContainerDoesNotDisposeGraphInstances() async throws {
        let container = Container()
        container.register(GSResource.self, scope: .graph) { GSResource() }
        let resource = try container.resolveOrThrow(GSResource.self)
        await container.disposeSingletons()
        #expect(resource.disposals.value == 0)
    }

    // MARK: Containers, arguments, decorators, contributions

    @Test func theGraphIsTheOutermostResolutionsAcrossChildContainers() throws {
        let root = Container()
        root.register(GSNode.self, scope: .graph) { GSNode() }
        // Resolves G through the root it captured.
        root.register(GSLeft.self) { GSLeft(node: try root.resolveOrThrow(GSNode.self)) }
        let child = Container(parent: root)
        child.register(GSRoot.self) {
            GSRoot(
                left: try child.resolveOrThrow(GSLeft.self),
                right: GSRight(node: try child.resolveOrThrow(GSNode.self)))
        }
        #expect(try child.resolveOrThrow(GSRoot.self).shares, "one graph, whichever container resolves")

        // A child's own registration of G is another registration: another instance.
        let overriding = Container(parent: root)
        overriding.register(GSNode.self, scope: .graph) { GSNode() }
        // `unowned`: a child's own factory holding the child strongly would be a cycle.
        overriding.register(GSRoot.self) { [unowned overriding] in
            GSRoot(
                left: try overriding.resolveOrThrow(GSLeft.self),
                right: GSRight(node: try overriding.resolveOrThrow(GSNode.self)))
        }
        #expect(try overriding.resolveOrThrow(GSRoot.self).shares == false)
    }

    @Test func argumentsGetOneInstancePerValueWithinAGraph() throws {
        let container = Container()
        container.register(GSTagged.self, scope: .graph) { (tag: String) in GSTagged(tag: tag) }
        container.register(GSRoot.self) {
            let a1 = try container.resolveOrThrow(GSTagged.self, argument: "a")
            let a2 = try container.resolveOrThrow(GSTagged.self, argument: "a")
            let b = try container.resolveOrThrow(GSTagged.self, argument: "b")
            #expect(a1 === a2)
            #expect(a1 !== b && b.tag == "b")
            return GSRoot(left: GSLeft(node: GSNode()), right: GSRight(node: GSNode()))
        }
        _ = try container.resolveOrThrow(GSRoot.self)
        let first = try container.resolveOrThrow(GSTagged.self, argument: "a")
        let second = try container.resolveOrThrow(GSTagged.self, argument: "a")
        #expect(first !== second, "a new instance per value in the next graph")
    }

    @Test func aGraphInstanceIsDecoratedOnce() throws {
        let container = diamond()
        let decorations = Counter()
        container.decorate(GSNode.self) { inner in
            decorations.increment()
            return inner
        }
        _ = try container.resolveOrThrow(GSRoot.self)
        #expect(decorations.value == 1)
        _ = try container.resolveOrThrow(GSRoot.self)
        #expect(decorations.value == 2, "once per graph")
    }

    @Test func graphScopedContributionsShareTheResolutionsGraph() throws {
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(into: GSPlugin.self, scope: .graph) {
            GSPluginImpl(node: try container.resolveOrThrow(GSNode.self))
        }
        container.register(into: GSPlugin.self) { GSPluginImpl(node: try container.resolveOrThrow(GSNode.self)) }
        container.register(GSRoot.self) {
            let plugins = try container.resolveAllOrThrow(GSPlugin.self)
            #expect(plugins.count == 2)
            #expect(plugins.allSatisfy { $0.node === plugins[0].node })
            return GSRoot(left: GSLeft(node: plugins[0].node), right: GSRight(node: plugins[1].node))
        }
        #expect(try container.resolveOrThrow(GSRoot.self).shares)
    }

    @Test func aResolveAllMadeOutsideAFactoryResolvesEachContributionInItsOwnGraph() throws {
        // As the article states: each contribution is then an outermost resolution of its own.
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(into: GSPlugin.self) { GSPluginImpl(node: try container.resolveOrThrow(GSNode.self)) }
        container.register(into: GSPlugin.self) { GSPluginImpl(node: try container.resolveOrThrow(GSNode.self)) }
        let plugins = try container.resolveAllOrThrow(GSPlugin.self)
        #expect(plugins.count == 2)
        #expect(plugins[0].node !== plugins[1].node)
    }

    @Test func workAFactoryHandsToAnotherThreadStartsANewGraphThere() throws {
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        container.register(GSRoot.self) {
            let left = GSLeft(node: try container.resolveOrThrow(GSNode.self))
            let elsewhere = Locked<GSNode?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                elsewhere.withLock { $0 = container.resolve(GSNode.self) }
                done.signal()
            }
            done.wait()
            return GSRoot(left: left, right: GSRight(node: try #require(elsewhere.withLock { $0 })))
        }
        #expect(try !container.resolveOrThrow(GSRoot.self).shares)
    }

    @Test func anInjectedKeyResolvingAGraphScopedTypeComputesItOnEveryRead() async {
        // Each read is an outermost resolution: its graph instance is not kept as the default.
        let container = Container()
        container.register(GSNode.self, scope: .graph) { GSNode() }
        let serials = Container.withShared(container) {
            [
                InjectedValues.current[GSNodeThroughKey.self]?.serial,
                InjectedValues.current[GSNodeThroughKey.self]?.serial,
                InjectedValues.current.gsNodeThroughKey?.serial,
            ]
        }
        #expect(serials.allSatisfy { $0 != nil })
        #expect(Set(serials).count == 3, "\(serials)")
    }

    // MARK: Cycles, validation, the graph export

    @Test func aCycleThroughAGraphScopedTypeIsReportedWithItsPath() {
        let container = Container()
        container.register(GSCycleA.self, scope: .graph) {
            _ = try container.resolveOrThrow(GSCycleB.self)
            return GSCycleA()
        }
        container.register(GSCycleB.self) {
            _ = try container.resolveOrThrow(GSCycleA.self)
            return GSCycleB()
        }
        do {
            _ = try container.resolveOrThrow(GSCycleA.self)
            Issue.record("a cycle resolved")
        } catch let error as DIError {
            guard case .circularDependency(let path) = error else {
                Issue.record("not a cycle: \(error)")
                return
            }
            #expect(path.count == 3)
            #expect(path.first?.hasSuffix("GSCycleA") == true && path.last?.hasSuffix("GSCycleA") == true)
            #expect(path[1].hasSuffix("GSCycleB"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anAsyncCycleThroughAChildTaskIsReportedWithItsPath() async {
        let container = Container()
        container.registerAsync(GSCycleA.self, scope: .graph) {
            async let again = container.resolveAsync(GSCycleA.self)
            _ = try await again
            return GSCycleA()
        }
        do {
            _ = try await container.resolveAsync(GSCycleA.self)
            Issue.record("a cycle resolved")
        } catch let error as DIError {
            guard case .circularDependency(let path) = error else {
                Issue.record("not a cycle: \(error)")
                return
            }
            #expect(path.count == 2 && path.allSatisfy { $0.hasSuffix("GSCycleA") }, "\(path)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func validationBuildsGraphScopedRegistrationsAndTheGraphShowsTheLifetime() throws {
        let container = diamond()
        let report = container.validate()
        #expect(report.isValid, "\(report)")
        let node = try #require(report.graph.nodes.first { $0.typeName.hasSuffix("GSNode") })
        #expect(node.scope == "graph")
        let left = try #require(report.graph.nodes.first { $0.typeName.hasSuffix("GSLeft") })
        #expect(report.graph.dependencies(of: left.id).contains { $0.id == node.id })
        #expect(Scope.graph.description == "graph")
        #expect(Scope.graph != .custom("graph"), "a custom scope named graph is another scope")
    }

    @Test func scopeInstanceCallsDoNotApplyToTheGraphScope() throws {
        let container = diamond()
        container.requireBinding(of: .graph)
        container.endScope(.graph)
        let pair = try container.withScope(.graph) {
            (try container.resolveOrThrow(GSRoot.self), try container.resolveOrThrow(GSRoot.self))
        }
        #expect(pair.0.shares && pair.1.shares)
        #expect(pair.0.left.node !== pair.1.left.node, "a bound instance of .graph is not used")
        let bound = container.beginScope(.graph)
        let root = try container.withScope(bound) { try container.resolveOrThrow(GSRoot.self) }
        #expect(root.shares)
        #expect(bound.instanceCount == 0)
    }

    // MARK: Property wrappers and Factory keys

    @Test func factoryKeysAndWrappersResolveInTheirOutermostResolutionsGraph() {
        withFreshContainer { _ in
            let root = Container.gsRootKey()
            #expect(root.shares, "keys called inside one key's factory share its graph")
            #expect(Container.gsNodeKey() !== Container.gsNodeKey(), "each top-level call is a graph")
            struct Owner {
                @Injected(Container.gsRootKey) var root: GSRoot
            }
            let owner = Owner()
            #expect(owner.root.shares)
            #expect(owner.root !== owner.root)
        }
    }

    @Test func injectedWrappersReadingTheContainerShareTheGraph() {
        withFreshContainer { container in
            _ = diamond(container)
            struct Owner {
                @Injected var root: GSRoot
                @Inject var node: GSNode?
            }
            let owner = Owner()
            #expect(owner.root.shares)
            #expect(owner.root.left.node !== owner.root.left.node)
            let injected = owner.node
            #expect(injected != nil)
            #expect(injected !== owner.root.left.node, "@Inject's first read was an outermost resolution of its own")
        }
    }
}

/// An `InjectedKey` whose value resolves a graph-scoped type, as apps write one.
private struct GSNodeThroughKey: InjectedKey {
    static var liveValue: GSNode? { Container.shared.resolve(GSNode.self) }
}

extension InjectedValues {
    fileprivate var gsNodeThroughKey: GSNode? {
        get { self[GSNodeThroughKey.self] }
        set { self[GSNodeThroughKey.self] = newValue }
    }
}
