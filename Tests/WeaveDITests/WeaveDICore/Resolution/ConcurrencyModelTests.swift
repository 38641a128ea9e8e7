import Foundation
import Testing
import WeaveDITestSupport

@_spi(Testing) @testable import WeaveDI
@testable import WeaveDICore

// The faults the concurrency model fixes, each forced with the protocol's test hooks (debug
// builds only; see `ConcurrencyTestHooks`) rather than hoped for with sleeps. A step that waits
// for another thread gives up after `patience` seconds, so a regression fails instead of hanging.

/// A one-shot signal between threads, with a deadline.
final class Signal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func raise() { semaphore.signal() }
    /// Whether the flag was raised within `seconds` (the raise is consumed).
    @discardableResult
    func wait(_ seconds: Double = ConcurrencyModelTests.patience) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

/// Runs `body` on a new thread; `join` waits for it (up to a deadline) and returns its result.
final class Spawned<R>: @unchecked Sendable {
    private let done = Signal()
    private var result: R?
    init(_ body: @escaping @Sendable () -> R) {
        let capture = LogCapture.current // the thread logs into the calling test's capture
        Thread {
            self.result = withCurrentLogCapture(capture, body)
            self.done.raise()
        }.start()
    }

    func join(_ seconds: Double = ConcurrencyModelTests.patience) -> R? {
        done.wait(seconds) ? result : nil
    }
}

final class HandoffS: Sendable {}
final class HandoffX: Sendable {}
final class HandoffS1: Sendable {}
final class HandoffS2: Sendable {}
final class ScopedRace: Sendable {}
final class ScopedWaited: Sendable {}
final class SlowHooked: Sendable {}
final class SlowHookOther: Sendable {}
final class SlowHookOuter: Sendable {
    let inner: SlowHooked?
    init(inner: SlowHooked?) { self.inner = inner }
}
final class ReRegistered: Sendable {
    static let live = Counter()
    static let gone = Counter()
    init() { ReRegistered.live.increment() }
    deinit { ReRegistered.gone.increment() }
}
final class ParentScoped: Sendable {}

@Suite("Concurrency model", .serialized, .capturesLog)
struct ConcurrencyModelTests {
    static let patience = 10.0

    #if DEBUG
        /// Fault 1: W builds S, which needs X, which B is building; B finishes X and asks for S. B
        /// must wait for W (no cycle), even when W has not woken up yet.
        @Test("no false cycle after a hand-off (two threads)")
        func handoffTwoThreads() throws {
            let container = Container()
            let sBuilds = Counter()
            let wWaitsForX = Signal()
            let bWaitsForS = Signal()
            let xStarted = Signal()
            container.register(HandoffS.self, scope: .singleton) {
                sBuilds.increment()
                _ = try container.resolveOrThrow(HandoffX.self)
                return HandoffS()
            }
            container.register(HandoffX.self, scope: .singleton) {
                xStarted.raise()
                wWaitsForX.wait()
                return HandoffX()
            }
            let xName = String(reflecting: HandoffX.self)
            let sName = String(reflecting: HandoffS.self)
            let hook: ConcurrencyTestHooks.Handler = { point, subject in
                if point == "waiterWillBlock", subject == xName { wWaitsForX.raise() }
                if point == "waiterWillBlock", subject == sName { bWaitsForS.raise() }
                // W stays asleep past its wake-up until B has asked for S: the old protocol's stale
                // edge W → B was still there at that moment.
                if point == "waiterDidWake", subject == xName { bWaitsForS.wait(2) }
            }
            try ConcurrencyTestHooks.with(hook) {
                let b = Spawned { () -> Result<HandoffS, any Error> in
                    Result {
                        _ = try container.resolveOrThrow(HandoffX.self)
                        return try container.resolveOrThrow(HandoffS.self)
                    }
                }
                #expect(xStarted.wait())
                let w = Spawned { Result { try container.resolveOrThrow(HandoffS.self) } }
                let fromW = try #require(w.join()).get()
                let fromB = try #require(b.join()).get()
                #expect(fromW === fromB)
                #expect(sBuilds.value == 1)
            }
        }

        /// Fault 1 with a chain of waits: W2 builds S2 (needs S1), W1 builds S1 (needs X), B builds X
        /// and then asks for S2.
        @Test("no false cycle after a hand-off (a chain of three threads)")
        func handoffThreeThreads() throws {
            let container = Container()
            let w1WaitsForX = Signal()
            let w2WaitsForS1 = Signal()
            let bWaitsForS2 = Signal()
            let xStarted = Signal()
            let s1Started = Signal()
            container.register(HandoffS2.self, scope: .singleton) {
                _ = try container.resolveOrThrow(HandoffS1.self)
                return HandoffS2()
            }
            container.register(HandoffS1.self, scope: .singleton) {
                s1Started.raise()
                _ = try container.resolveOrThrow(HandoffX.self)
                return HandoffS1()
            }
            container.register(HandoffX.self, scope: .singleton) {
                xStarted.raise()
                w1WaitsForX.wait()
                w2WaitsForS1.wait()
                return HandoffX()
            }
            let xName = String(reflecting: HandoffX.self)
            let s1Name = String(reflecting: HandoffS1.self)
            let s2Name = String(reflecting: HandoffS2.self)
            let hook: ConcurrencyTestHooks.Handler = { point, subject in
                guard point == "waiterWillBlock" || point == "waiterDidWake" else { return }
                if point == "waiterWillBlock" {
                    if subject == xName { w1WaitsForX.raise() }
                    if subject == s1Name { w2WaitsForS1.raise() }
                    if subject == s2Name { bWaitsForS2.raise() }
                } else if subject == xName {
                    bWaitsForS2.wait(2)
                }
            }
            try ConcurrencyTestHooks.with(hook) {
                let b = Spawned { () -> Result<HandoffS2, any Error> in
                    Result {
                        _ = try container.resolveOrThrow(HandoffX.self)
                        return try container.resolveOrThrow(HandoffS2.self)
                    }
                }
                #expect(xStarted.wait())
                let w1 = Spawned { Result { try container.resolveOrThrow(HandoffS1.self) } }
                #expect(s1Started.wait())
                let w2 = Spawned { Result { try container.resolveOrThrow(HandoffS2.self) } }
                _ = try #require(w1.join()).get()
                let fromW2 = try #require(w2.join()).get()
                let fromB = try #require(b.join()).get()
                #expect(fromW2 === fromB)
            }
        }

        /// Fault 3: `endScope` between choosing the container's current scope instance and using it.
        @Test("endScope racing a resolution: the resolution uses the new scope instance")
        func endScopeRace() throws {
            let container = Container()
            let scope = Scope.custom("race")
            container.register(ScopedRace.self, scope: scope) { ScopedRace() }
            let chosen = Signal()
            let ended = Signal()
            let times = Counter()
            let hook: ConcurrencyTestHooks.Handler = { point, subject in
                guard point == "scopeInstanceChosen", subject == "race" else { return }
                times.increment()
                guard times.value == 1 else { return } // the first choice only
                chosen.raise()
                ended.wait(2)
            }
            try ConcurrencyTestHooks.with(hook) {
                let resolver = Spawned { Result { try container.resolveOrThrow(ScopedRace.self) } }
                #expect(chosen.wait())
                container.endScope(scope)
                ended.raise()
                let value = try #require(resolver.join()).get()
                // The resolution went to the instance that replaced the ended one, and is kept there.
                #expect(container.resolve(ScopedRace.self) === value)
            }
        }

        /// Fault 3: a build still running when its scope instance ends keeps nothing; a thread that
        /// was waiting for it resolves in the container's new instance, which keeps that instance.
        @Test("a build running when its scope instance ends is not kept; its waiter resolves in the new instance")
        func endScopeDuringBuild() throws {
            let container = Container()
            let scope = Scope.custom("ends-during-build")
            let building = Signal()
            let release = Signal()
            let waiterBlocked = Signal()
            let firstBuild = Counter()
            container.register(ScopedWaited.self, scope: scope) {
                firstBuild.increment()
                if firstBuild.value == 1 {
                    building.raise()
                    release.wait()
                }
                return ScopedWaited()
            }
            let name = String(reflecting: ScopedWaited.self)
            let hook: ConcurrencyTestHooks.Handler = { point, subject in
                if point == "waiterWillBlock", subject == name { waiterBlocked.raise() }
            }
            try ConcurrencyTestHooks.with(hook) {
                let builder = Spawned { Result { try container.resolveOrThrow(ScopedWaited.self) } }
                #expect(building.wait())
                let waiter = Spawned { Result { try container.resolveOrThrow(ScopedWaited.self) } }
                #expect(waiterBlocked.wait())
                container.endScope(scope)
                release.raise()
                let built = try #require(builder.join()).get()
                let waited = try #require(waiter.join()).get()
                #expect(built !== waited, "the waiter resolved in the new scope instance")
                #expect(container.resolve(ScopedWaited.self) === waited, "the new scope instance keeps the waiter's")
            }
        }
    #endif

    /// Fault 2: slow-resolution hooks run after the factory's frame is popped and the instance is
    /// stored: resolving the slow type there returns it, and resolving another type adds no edge.
    @Test("a slow-resolution hook runs after the instance is built and stored")
    func slowHookAfterBuild() {
        let container = Container()
        container.register(SlowHooked.self, scope: .singleton) { SlowHooked() }
        container.register(SlowHookOther.self) { SlowHookOther() }
        let inHook = LockedValue<(SlowHooked?, Bool)>((nil, false))
        let token = UnifiedDI.onSlowResolution(threshold: 0) { name, _ in
            guard name == String(reflecting: SlowHooked.self) else { return }
            let again = container.resolve(SlowHooked.self)
            let other = container.resolve(SlowHookOther.self)
            inHook.mutate { $0 = (again, other != nil) }
        }
        defer { token.cancel() }
        let built = container.resolve(SlowHooked.self)
        let (again, otherResolved) = inHook.value
        #expect(again != nil && again === built)
        #expect(otherResolved)
        #expect(container.dependencyGraph().hasEdge(from: SlowHooked.self, to: SlowHookOther.self) == false)
    }

    /// Fault 2, nested: the hook for a resolution made inside another factory runs once the
    /// outer factory is done, so what the hook resolves is not a dependency of the outer type.
    @Test("a slow-resolution hook for a nested resolution runs after the outermost factory")
    func slowHookAfterOutermostFactory() {
        let container = Container()
        container.register(SlowHookOuter.self) { SlowHookOuter(inner: container.resolve(SlowHooked.self)) }
        container.register(SlowHooked.self, scope: .singleton) { SlowHooked() }
        container.register(SlowHookOther.self) { SlowHookOther() }
        let token = UnifiedDI.onSlowResolution(threshold: 0) { name, _ in
            guard name == String(reflecting: SlowHooked.self) else { return }
            _ = container.resolve(SlowHookOther.self)
        }
        defer { token.cancel() }
        #expect(container.resolve(SlowHookOuter.self)?.inner != nil)
        let graph = container.dependencyGraph()
        #expect(graph.hasEdge(from: SlowHookOuter.self, to: SlowHooked.self))
        #expect(graph.hasEdge(from: SlowHookOuter.self, to: SlowHookOther.self) == false)
        #expect(graph.hasEdge(from: SlowHooked.self, to: SlowHookOther.self) == false)
    }

    /// Fault 4.
    @Test("the handle of a refused duplicate removes nothing")
    func refusedDuplicateHandle() {
        let container = Container()
        container.duplicatePolicy = .reject
        container.register(Int.self) { 1 }
        let refused = container.register(Int.self) { 2 }
        #expect(refused.unregister() == false)
        #expect(container.resolve(Int.self) == 1)
    }

    /// Fault 5: the container's current scope instance and a bound one each keep at most the
    /// current registration's instance.
    @Test("re-registering a scoped type releases the replaced registration's instances")
    func reRegisteringScopedType() {
        let container = Container()
        let scope = Scope.custom("re-registered")
        let baseline = ReRegistered.live.value - ReRegistered.gone.value
        let bound = container.beginScope(scope)
        for _ in 0..<2000 {
            container.register(ReRegistered.self, scope: scope) { ReRegistered() }
            _ = container.resolve(ReRegistered.self)
            container.withScope(bound) { _ = container.resolve(ReRegistered.self) }
        }
        #expect(bound.instanceCount == 1)
        // One in the container's current instance, one in the bound instance.
        #expect(ReRegistered.live.value - ReRegistered.gone.value - baseline <= 2)
        bound.end()
        container.endScope(scope)
    }

    /// Fault 6: the defaults' lock-free tables grow geometrically; old ones add up to less than
    /// the newest, so memory is linear in the number of keys (it was a full copy per key).
    @Test("InjectedValues defaults take memory linear in the number of keys")
    func defaultsMemoryIsLinear() {
        let defaults = InjectedDefaults(context: .live)
        func read<K: InjectedKey>(_ key: K.Type, remaining: Int) -> Int where K.Value == Int {
            _ = defaults.value(for: key)
            return remaining == 0 ? 1 : 1 + read(Nest<K>.self, remaining: remaining - 1)
        }
        #expect(read(Nest<LeafKey>.self, remaining: 999) == 1000)
        // 1 000 keys: tables of 8 … 4 096 entries of two words each, 131 KB in all; a copy per key
        // would be tens of MB.
        #expect(defaults.tableBytes <= 4 * 1000 * 2 * MemoryLayout<UInt>.stride * 2)
        #expect(defaults.value(for: Nest<Nest<LeafKey>>.self) == 2)
    }

    /// Fault 8: two threads computing defaults that read each other: a cycle reported, no hang.
    @Test("defaults computed on two threads that read each other do not hang")
    func crossThreadDefaultsCycle() {
        let defaults = InjectedDefaults(context: .live)
        CrossKeyA.setUp(defaults)
        let a = Spawned { defaults.value(for: CrossKeyA.self) }
        let b = Spawned { defaults.value(for: CrossKeyB.self) }
        #expect(a.join() != nil)
        #expect(b.join() != nil)
    }

    /// Fault 9: a scope instance bound to a child container applies to scoped registrations
    /// the child finds in its parent: one instance per bound scope instance.
    @Test("a child's bound scope instance applies to its parent's scoped registrations")
    func childBindingAppliesToParentRegistrations() async {
        let parent = Container()
        parent.register(ParentScoped.self, scope: .request) { ParentScoped() }
        let child = Container(parent: parent)
        // The instances themselves are kept (not their identifiers: a freed instance's address
        // may be reused by the next request's).
        let pairs = await withTaskGroup(of: [ParentScoped].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    child.withScope(.request) {
                        [child.resolve(ParentScoped.self)!, child.resolve(ParentScoped.self)!]
                    }
                }
            }
            var all: [[ParentScoped]] = []
            for await pair in group { all.append(pair) }
            return all
        }
        #expect(pairs.allSatisfy { $0[0] === $0[1] }, "one instance within a request")
        #expect(Set(pairs.map { ObjectIdentifier($0[0]) }).count == 8, "no instance shared across requests")
        // Outside any binding, the parent's own current instance serves both.
        #expect(child.resolve(ParentScoped.self) === parent.resolve(ParentScoped.self))
    }

    /// Fault 10: the build gate works on this system (priority inheritance where the kernel has it).
    @Test("a waiter blocked on a build gate resumes when the owner finishes")
    func gateReleasesWaiters() {
        let container = Container()
        let started = Signal()
        let release = Signal()
        container.register(HandoffX.self, scope: .singleton) {
            started.raise()
            release.wait()
            return HandoffX()
        }
        let owner = Spawned { container.resolve(HandoffX.self) }
        #expect(started.wait())
        let waiters = (0..<4).map { _ in Spawned { container.resolve(HandoffX.self) } }
        release.raise()
        let built = owner.join() ?? nil
        #expect(built != nil)
        for waiter in waiters { #expect((waiter.join() ?? nil) === built) }
    }
}

struct LeafKey: InjectedKey {
    static var liveValue: Int { 0 }
}

/// A distinct key type per nesting level, whose default is its depth.
struct Nest<Inner: InjectedKey>: InjectedKey where Inner.Value == Int {
    static var liveValue: Int { Inner.liveValue + 1 }
}

/// Two defaults that read each other once, each computed on its own thread.
enum CrossKeyA: InjectedKey {
    nonisolated(unsafe) static var defaults: InjectedDefaults?
    static let bothComputing = DispatchGroup()
    static let depth = LockedValue([ObjectIdentifier: Int]())

    static func setUp(_ defaults: InjectedDefaults) {
        Self.defaults = defaults
        bothComputing.enter()
        bothComputing.enter()
    }

    /// Reads `Other` the first time it is computed, once both threads are computing.
    static func compute<Other: InjectedKey>(reading _: Other.Type) -> Int where Other.Value == Int {
        var first = false
        depth.mutate { depths in
            let key = ObjectIdentifier(Other.self)
            depths[key, default: 0] += 1
            first = depths[key] == 1
        }
        guard first, let defaults else { return 1 }
        bothComputing.leave()
        _ = bothComputing.wait(timeout: .now() + 5)
        return defaults.value(for: Other.self) + 1
    }

    static var liveValue: Int { compute(reading: CrossKeyB.self) }
}

enum CrossKeyB: InjectedKey {
    static var liveValue: Int { CrossKeyA.compute(reading: CrossKeyA.self) }
}

extension DependencyGraph {
    /// Whether the graph has an edge between the unnamed registrations of two types.
    func hasEdge(from: Any.Type, to: Any.Type) -> Bool {
        let source = nodes(typeName: String(reflecting: from)).map(\.id)
        let target = nodes(typeName: String(reflecting: to)).map(\.id)
        return edges.contains { source.contains($0.from) && target.contains($0.to) }
    }
}
