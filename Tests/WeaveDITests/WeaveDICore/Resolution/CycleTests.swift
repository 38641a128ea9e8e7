import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

@Suite("Cycle detection", .capturesLog)
struct CycleTests {
    func registerCycle(in container: Container, scope: Scope) {
        container.register(LoopA.self, scope: scope) { LoopA(b: container.resolve(LoopB.self)) }
        container.register(LoopB.self, scope: scope) { LoopB(c: container.resolve(LoopC.self)) }
        container.register(LoopC.self, scope: scope) { LoopC(a: container.resolve(LoopA.self)) }
    }

    @Test(arguments: [Scope.transient, .singleton, .weak])
    func threeStepCycleIsReportedWithItsPath(scope: Scope) throws {
        let container = Container()
        container.register(LoopA.self, scope: scope) { LoopA(b: try container.resolveOrThrow(LoopB.self)) }
        container.register(LoopB.self, scope: scope) { LoopB(c: try container.resolveOrThrow(LoopC.self)) }
        container.register(LoopC.self, scope: scope) { LoopC(a: try container.resolveOrThrow(LoopA.self)) }
        do {
            _ = try container.resolveOrThrow(LoopA.self)
            Issue.record("expected a cycle")
        } catch let DIError.circularDependency(path) {
            #expect(path.count == 4)
            #expect(path.first?.hasSuffix("LoopA") == true)
            #expect(path[1].hasSuffix("LoopB"))
            #expect(path[2].hasSuffix("LoopC"))
            #expect(path.last?.hasSuffix("LoopA") == true)
        }
        // Logged once, as an error, into this test's own capture (nothing reaches the test output).
        let logged = capturedProblems(mentioning: "Circular dependency: WeaveDITests.LoopA -> WeaveDITests.LoopB")
        #expect(logged.map(\.severity) == [.error])
    }

    @Test func nonThrowingResolutionReturnsNilAndTheHookHears() {
        let container = Container()
        registerCycle(in: container, scope: .transient)
        let heard = Counter()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .circularDependency(let path) = error, path.contains(where: { $0.hasSuffix("LoopA") }) {
                heard.increment()
            }
        }
        defer { token.cancel() }
        // The innermost resolve of LoopA fails; the chain above it completes with nil there.
        let a = container.resolve(LoopA.self)
        #expect(a?.b?.c?.a == nil)
        #expect(heard.value >= 1)
    }

    @Test func selfDependencyIsACycle() {
        let container = Container()
        container.register(SelfNeeding.self) { SelfNeeding(me: try container.resolveOrThrow(SelfNeeding.self)) }
        #expect(throws: DIError.self) { try container.resolveOrThrow(SelfNeeding.self) }
    }

    @Test func sameTypeUnderTwoNamesIsNoCycle() {
        let container = Container()
        container.register("basic", String.self) { "basic" }
        container.register(String.self) { "decorated(" + container.resolve("basic", String.self)! + ")" }
        #expect(container.resolve(String.self) == "decorated(basic)")
    }

    @Test func childDecoratingParentIsNoCycle() {
        let parent = Container()
        parent.register(String.self) { "base" }
        let child = Container(parent: parent)
        child.register(String.self) { "child+" + parent.resolve(String.self)! }
        #expect(child.resolve(String.self) == "child+base")
    }

    @Test func deepAcyclicChainIsNoCycle() throws {
        let container = Container()
        // Named links of the same type, Int["0"] -> Int["1"] -> …, 150 deep (deeper than the count
        // of 64 that once refused it).
        let depth = 150
        for level in 0..<depth {
            container.register("\(level)", Int.self) {
                level == depth - 1 ? 0 : 1 + (try container.resolveOrThrow("\(level + 1)", Int.self))
            }
        }
        #expect(try container.resolveOrThrow("0", Int.self) == depth - 1)
    }

    @Test func crossThreadSingletonCycleIsReportedNotDeadlocked() {
        // Thread 1 builds A (needs B); thread 2 builds B (needs A). Each waits for the other's
        // singleton: WeaveDI must notice and fail one side instead of hanging.
        for _ in 0..<20 {
            let container = Container()
            let gate = Counter()
            container.register(LoopA.self, scope: .singleton) {
                gate.increment()
                while gate.value < 2 { Thread.sleep(forTimeInterval: 0.0005) }
                return LoopA(b: container.resolve(LoopB.self).map { _ in LoopB(c: nil) })
            }
            container.register(LoopB.self, scope: .singleton) {
                gate.increment()
                while gate.value < 2 { Thread.sleep(forTimeInterval: 0.0005) }
                return LoopB(c: container.resolve(LoopA.self).map { _ in LoopC(a: nil) })
            }
            let results = runOnThreads([
                { @Sendable in container.resolve(LoopA.self) as Any? },
                { @Sendable in container.resolve(LoopB.self) as Any? },
            ])
            let (ra, rb) = (results[0], results[1])
            #expect(ra != nil && rb != nil)
        }
    }
}

@Suite("Cycle reporting", .capturesLog)
struct CycleReportingTests {
    @Test func aCycleThroughThrowingResolutionsIsHeardOnce() {
        let container = Container()
        final class HeardA: Sendable { init(_: HeardB) {} }
        final class HeardB: Sendable { init(_: HeardC) {} }
        final class HeardC: Sendable { init(_: HeardA) {} }
        container.register(HeardA.self) { HeardA(try container.resolveOrThrow(HeardB.self)) }
        container.register(HeardB.self) { HeardB(try container.resolveOrThrow(HeardC.self)) }
        container.register(HeardC.self) { HeardC(try container.resolveOrThrow(HeardA.self)) }
        let heard = Counter()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .circularDependency(let path) = error, path.contains(where: { $0.hasSuffix("HeardA") }) {
                heard.increment()
            }
        }
        defer { token.cancel() }
        #expect(throws: DIError.self) { try container.resolveOrThrow(HeardA.self) }
        #expect(heard.value == 1)
    }
}

@Suite("Resolution stack", .capturesLog)
struct ResolutionStackTests {
    @Test func namedCycleIsReportedWithTheNames() {
        let container = Container()
        container.register("a", Int.self) { try container.resolveOrThrow("b", Int.self) }
        container.register("b", Int.self) { try container.resolveOrThrow("a", Int.self) }
        do {
            _ = try container.resolveOrThrow("a", Int.self)
            Issue.record("expected a cycle")
        } catch let DIError.circularDependency(path) {
            #expect(path == ["Swift.Int[\"a\"]", "Swift.Int[\"b\"]", "Swift.Int[\"a\"]"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func namedAndUnnamedFramesInterleave() throws {
        // Unnamed -> named -> unnamed -> named: the names stay with their own frames as the
        // chain grows and unwinds, so the cycle at the end names the right entries.
        let container = Container()
        container.register(String.self) { try container.resolveOrThrow("inner", String.self) }
        container.register("inner", String.self) { String(try container.resolveOrThrow(Int.self)) }
        container.register(Int.self) { try container.resolveOrThrow("leaf", Int.self) }
        container.register("leaf", Int.self) { 7 }
        #expect(try container.resolveOrThrow(String.self) == "7")
        container.register("leaf", Int.self) { try container.resolveOrThrow("inner", String.self).count }
        do {
            _ = try container.resolveOrThrow(String.self)
            Issue.record("expected a cycle")
        } catch let DIError.circularDependency(path) {
            #expect(path == ["Swift.String[\"inner\"]", "Swift.Int", "Swift.Int[\"leaf\"]", "Swift.String[\"inner\"]"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func everyEdgeOfAWideFactoryIsRecordedAgainAfterAReset() {
        // One factory resolving more types than the per-thread edge cache holds: each edge must
        // reach the graph, and a reset (which clears the graph) must not leave any cached out.
        let container = Container()
        func registerWide() {
            container.register(WideLeaf0.self) { WideLeaf0() }
            container.register(WideLeaf1.self) { WideLeaf1() }
            container.register(WideLeaf2.self) { WideLeaf2() }
            container.register(WideLeaf3.self) { WideLeaf3() }
            container.register(WideLeaf4.self) { WideLeaf4() }
            container.register(WideLeaf5.self) { WideLeaf5() }
            container.register(WideLeaf6.self) { WideLeaf6() }
            container.register(WideLeaf7.self) { WideLeaf7() }
            container.register(WideRoot.self) {
                _ = (
                    container.resolve(WideLeaf0.self), container.resolve(WideLeaf1.self),
                    container.resolve(WideLeaf2.self), container.resolve(WideLeaf3.self),
                    container.resolve(WideLeaf4.self), container.resolve(WideLeaf5.self),
                    container.resolve(WideLeaf6.self), container.resolve(WideLeaf7.self)
                )
                return WideRoot()
            }
        }
        func edgesFromRoot() -> Int {
            let graph = container.dependencyGraph()
            guard let root = graph.nodes(typeName: String(reflecting: WideRoot.self)).first else { return 0 }
            return graph.dependencies(of: root.id).count
        }
        registerWide()
        for _ in 0..<3 { _ = container.resolve(WideRoot.self) }
        #expect(edgesFromRoot() == 8)
        container.reset()
        registerWide()
        _ = container.resolve(WideRoot.self)
        #expect(edgesFromRoot() == 8)
    }
}

struct WideRoot {}
struct WideLeaf0 {}
struct WideLeaf1 {}
struct WideLeaf2 {}
struct WideLeaf3 {}
struct WideLeaf4 {}
struct WideLeaf5 {}
struct WideLeaf6 {}
struct WideLeaf7 {}
