import Testing
import WeaveDI

@Suite("Cycle detection")
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
    }

    @Test func nonThrowingResolutionReturnsNilAndTheHookHears() {
        let container = Container()
        registerCycle(in: container, scope: .transient)
        let heard = Counter()
        let token = UnifiedDI.onResolutionError { _, error in
            if case let .circularDependency(path) = error, path.contains(where: { $0.hasSuffix("LoopA") }) {
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
        // 150 named links of the same type: Int["0"] -> Int["1"] -> ... -> Int["149"].
        for level in 0..<150 {
            container.register("\(level)", Int.self) {
                level == 149 ? 0 : 1 + (try container.resolveOrThrow("\(level + 1)", Int.self))
            }
        }
        #expect(try container.resolveOrThrow("0", Int.self) == 149)
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
            let results = runOnThreads([{ @Sendable in container.resolve(LoopA.self) as Any? }, { @Sendable in container.resolve(LoopB.self) as Any? }])
            let (ra, rb) = (results[0], results[1])
            #expect(ra != nil && rb != nil)
        }
    }
}

import Foundation

@Suite("Cycle reporting")
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
            if case let .circularDependency(path) = error, path.contains(where: { $0.hasSuffix("HeardA") }) {
                heard.increment()
            }
        }
        defer { token.cancel() }
        #expect(throws: DIError.self) { try container.resolveOrThrow(HeardA.self) }
        #expect(heard.value == 1)
    }
}
