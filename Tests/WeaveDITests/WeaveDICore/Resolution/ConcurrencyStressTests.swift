import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

/// A randomized, seeded (so replayable) stress of the build/wait protocol: threads resolve an
/// acyclic graph of shared instances while others end scopes, re-register and reset. Run under
/// ThreadSanitizer in CI. Replay a failing run with `WEAVEDI_STRESS_SEED=<seed> swift test
/// --filter ConcurrencyStress`.
@Suite("Concurrency stress", .capturesLog)
struct ConcurrencyStressTests {
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["WEAVEDI_STRESS_SEED"]
        .flatMap(UInt64.init).map { [$0] } ?? [1, 2, 3, 0xC0FFEE]

    @Test(
        "random resolutions, scope ends, re-registrations and resets: no false cycle, no hang, one build per singleton",
        arguments: seeds)
    func randomSchedule(seed: UInt64) throws {
        let graph = StressGraph(seed: seed, nodes: 16)
        let container = Container()
        graph.registerAll(in: container)
        let threads = 4
        let workers = (0..<threads).map { index in
            Spawned { () -> [String] in
                var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37)
                var problems: [String] = []
                for _ in 0..<1500 {
                    let roll = random.next() % 100
                    let node = Int(random.next() % UInt64(graph.count))
                    switch roll {
                    case 0..<88:
                        do {
                            _ = try container.resolveOrThrow(graph.name(node), StressNode.self)
                        } catch DIError.dependencyNotFound {
                            // A reset empties the container until it is registered again.
                        } catch {
                            problems.append("seed \(seed): resolving \(graph.name(node)) failed: \(error)")
                        }
                    case 88..<94:
                        container.endScope(StressGraph.scope)
                    case 94..<99:
                        graph.register(node, in: container)
                    default:
                        container.reset()
                        graph.registerAll(in: container)
                    }
                }
                return problems
            }
        }
        for worker in workers {
            let problems = try #require(worker.join(120), "seed \(seed): a worker did not finish (deadlock?)")
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
        let builds = graph.singletonBuilds()
        #expect(builds.allSatisfy { $0.value == 1 }, "seed \(seed): a singleton registration was built more than once")
    }
}

final class StressNode: Sendable {
    let generation: Int
    init(generation: Int) { self.generation = generation }
}

/// An acyclic graph of named registrations of `StressNode`: node `i` depends on some nodes below
/// it; a third of them are singletons, a third live in a custom scope, a third are transient.
final class StressGraph: @unchecked Sendable {
    static let scope = Scope.custom("stress")
    let count: Int
    private let dependencies: [[Int]]
    private let lock = NSLock()
    private var nextGeneration = 0
    /// Builds per singleton registration (by generation).
    private var builds: [Int: Int] = [:]

    init(seed: UInt64, nodes: Int) {
        var random = SplitMix64(seed: seed)
        count = nodes
        dependencies = (0..<nodes).map { index in
            (0..<index).filter { _ in random.next() % 4 == 0 }
        }
    }

    func name(_ node: Int) -> String { "n\(node)" }

    func registerAll(in container: Container) {
        for node in 0..<count { register(node, in: container) }
    }

    func register(_ node: Int, in container: Container) {
        let generation = lock.withLock { () -> Int in
            nextGeneration += 1
            return nextGeneration
        }
        let scope: Scope = [Scope.singleton, StressGraph.scope, .transient][node % 3]
        let dependencies = self.dependencies[node]
        container.register(name(node), StressNode.self, scope: scope) {
            for dependency in dependencies {
                _ = try container.resolveOrThrow(self.name(dependency), StressNode.self)
                sched_yield() // widens the windows in which other threads hand off
            }
            // Counted once the build succeeds (a build failing on a reset is retried).
            if scope == .singleton { self.lock.withLock { self.builds[generation, default: 0] += 1 } }
            return StressNode(generation: generation)
        }
    }

    func singletonBuilds() -> [Int: Int] { lock.withLock { builds } }
}
