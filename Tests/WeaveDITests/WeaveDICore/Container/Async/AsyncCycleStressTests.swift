import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

private final class StressA: Sendable {}
private final class StressB: Sendable {}

// The shape of `AsyncShapesTests.cycleThroughATaskThatBuildsIsProvenAtOnce`, looped: each round
// has its own deadline, so a stuck round is a failure that says what waits, not a hang.
@Suite("Async cycle stress", .capturesLog)
struct AsyncCycleStressTests {
    /// A's factory starts a `Task {}` that resolves B and resolves B itself; B needs A. Whichever
    /// task builds B, every task hears of the cycle, and once they have, no build of A or B runs
    /// again: a task waiting for a build that fails on a cycle its owner proved on its own path
    /// gets that cycle instead of building again (which started one more `Task {}` per retry,
    /// each retrying in turn, for ever).
    @Test(.timeLimit(.minutes(5)))
    func cycleThroughATaskThatBuildsEndsEveryTimeAndStops() async {
        var runs: [Counter] = []
        for round in 0..<2_000 {
            let container = Container()
            let aRuns = Counter()
            runs.append(aRuns)
            let background = Recorder<String>()
            let foreground = Recorder<String>()
            container.registerAsync(StressA.self, scope: .singleton) {
                aRuns.increment()
                let task = Task {
                    do {
                        _ = try await container.resolveAsync(StressB.self)
                        background.append("an instance")
                    } catch { background.append("\(error)") }
                }
                defer { _ = task }
                _ = try await container.resolveAsync(StressB.self)
                return StressA()
            }
            container.registerAsync(StressB.self, scope: .singleton) {
                await Task.yield()
                _ = try await container.resolveAsync(StressA.self)
                return StressB()
            }
            let main = Task {
                do {
                    _ = try await container.resolveAsync(StressA.self)
                    foreground.append("an instance")
                } catch { foreground.append("\(error)") }
            }
            // Past any possible cycle's deadlines (2 s each); a round takes about a millisecond.
            let deadline = ContinuousClock.now + .seconds(20)
            while foreground.all.isEmpty || background.all.isEmpty, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            // A round runs A's factory once, a few times more when a `Task {}` runs late (after
            // both builds failed it resolves afresh, and starts one more); retries that never end
            // run it thousands of times a second. Wait until it stops (or clearly does not).
            var seen = aRuns.value
            var quiet = 0
            while quiet < 3, seen <= 1_000 {
                try? await Task.sleep(for: .milliseconds(1))
                let now = aRuns.value
                quiet = now == seen ? quiet + 1 : 0
                seen = now
            }
            guard seen <= 1_000 else {
                Issue.record("round \(round): A's factory ran \(seen) times and still runs")
                main.cancel()
                return
            }
            for outcome in foreground.all + background.all {
                #expect(outcome.hasPrefix("Circular dependency"), "round \(round): \(outcome)")
            }
        }
        // Every resolution has ended: no build of A runs any more.
        let total = runs.reduce(0) { $0 + $1.value }
        try? await Task.sleep(for: .milliseconds(200))
        #expect(runs.reduce(0) { $0 + $1.value } == total, "builds of A still running after every resolution failed")
    }
}
