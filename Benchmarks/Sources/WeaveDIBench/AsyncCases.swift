import AllocationCounter
import Foundation
import WeaveDI

// Async factories: `registerAsync` / `resolveAsync` against the hand-written code they
// replace, timed the way the synchronous cases are (calibrated rounds of about
// `settings.roundNanoseconds`, every contestant of a case once per round in rotating order,
// medians) but from a nonisolated async context: these functions are not isolated to any actor,
// so they run on the global concurrent executor and no call hops to the main actor (which
// `main.swift`'s top-level code is isolated to).
//
// - async-singleton: a built async singleton read with `resolveAsync`, against awaiting the
//   `.value` of a stored, finished `Task { await make() }` (goal: within 2×).
// - async-transient: an async transient built by `resolveAsync`, against calling its async
//   initializer directly (goal: within 2×).
// - async-transient-floor: the same resolution against the async initializer called inside
//   `TaskLocal.withValue` with a new frame object, the least any resolution path carried by the
//   task costs per factory call (no goal: it shows where the transient row's time goes).
// - async-waiters: 1 000 tasks resolving one async singleton whose build lasts until all of them
//   have started asking, in nanoseconds per waiter (task start, wait, resumption), against
//   1 000 tasks awaiting one hand-written `Task`'s value under the same condition.

/// The async cases, in table order (`--only` takes these ids).
enum AsyncCaseID: String, CaseIterable, Codable, Sendable {
    case singleton = "async-singleton"
    case transient = "async-transient"
    case transientFloor = "async-transient-floor"
    case waiters = "async-waiters"

    var title: String {
        switch self {
        case .singleton: return "Async singleton, built (`resolveAsync` ∣ a stored `Task`'s `.value`)"
        case .transient: return "Async transient (`resolveAsync` ∣ the async initializer)"
        case .transientFloor:
            return "Async transient (`resolveAsync` ∣ the async initializer inside `TaskLocal.withValue`)"
        case .waiters: return "1 000 tasks awaiting one slow async singleton build (ns per waiter)"
        }
    }

    /// The goal for WeaveDI ÷ hand-written, if the issue sets one.
    var goal: (target: String, met: (Double) -> Bool)? {
        switch self {
        case .singleton, .transient: return ("≤ 2", { $0 <= 2 })
        case .waiters, .transientFloor: return nil
        }
    }

    /// Waiters per operation unit: the waiter case's unit is a batch of 1 000 tasks.
    var operationsPerUnit: Int { self == .waiters ? AsyncCases.waitersPerBuild : 1 }
}

/// A service whose initializer is async, as one that opens a connection would be (this one
/// returns at once, so the rows measure what surrounds the call).
final class AsyncLeaf: Sendable {
    let value: Int
    init() async { value = 1 }
}

/// A link of a task-carried path, as small as one can be: what the floor row binds per call.
final class FloorFrame: Sendable {
    @TaskLocal static var top: FloorFrame?
    let parent: FloorFrame?
    init(parent: FloorFrame?) { self.parent = parent }
}

/// The singleton the waiter case builds once per batch.
final class SlowService: Sendable { init() {} }

/// The async singleton the hand-written contestant builds: an async function returning a logger.
func makeLoggerAsync() async -> any Logging { ConsoleLogger() }

/// One contestant's loop for one async case. `run(n)` performs `n` units (one resolution, or one
/// batch of 1 000 waiters), timing only them (any setup is done first, untimed), and returns the
/// nanoseconds they took.
struct AsyncJob: Sendable {
    let id: AsyncCaseID
    let contestant: String
    let mode: Mode
    let run: @Sendable (Int) async -> UInt64
}

/// What the async cases measured: case id -> contestant -> numbers (per operation: per
/// resolution, or per waiter).
struct AsyncResults: Codable, Sendable {
    var cases: [String: [String: Measurement]] = [:]

    func median(_ id: AsyncCaseID, _ contestant: String) -> Double? {
        cases[id.rawValue]?[contestant]?.medianNanoseconds
    }
}

enum AsyncCases {
    static let waitersPerBuild = 1_000
    static let contestants = [Contestants.handWritten, Contestants.weaveDI, Contestants.weaveDIOptimized]

    static func wanted(_ settings: Settings) -> [AsyncCaseID] {
        AsyncCaseID.allCases.filter { settings.only?.contains($0.rawValue) ?? true }
    }

    /// Whether `--only` names async cases and nothing else.
    static func onlyAsync(_ settings: Settings) -> Bool {
        guard let only = settings.only, !only.isEmpty else { return false }
        return only.allSatisfy { AsyncCaseID(rawValue: $0) != nil }
    }

    /// Sets up every contestant's loops, then times each case with its contestants interleaved.
    static func run(_ settings: Settings) async -> AsyncResults {
        let optimized = Mode(
            enter: { UnifiedRegistry.shared.enableOptimization() },
            leave: { UnifiedRegistry.shared.disableOptimization() })
        var jobs: [AsyncJob] = []
        for id in wanted(settings) {
            jobs.append(AsyncJob(id: id, contestant: Contestants.handWritten, mode: .plain, run: await handWritten(id)))
            jobs.append(AsyncJob(id: id, contestant: Contestants.weaveDI, mode: .plain, run: await weaveDI(id)))
            optimized.enter()
            let optimizedRun = await weaveDI(id)
            optimized.leave()
            jobs.append(AsyncJob(id: id, contestant: Contestants.weaveDIOptimized, mode: optimized, run: optimizedRun))
        }
        var results = AsyncResults()
        for id in wanted(settings) {
            let caseJobs = jobs.filter { $0.id == id }
            report("  \(id.rawValue): \(caseJobs.map(\.contestant).joined(separator: ", "))")
            for (job, measurement) in zip(caseJobs, await measureInterleaved(settings, caseJobs)) {
                results.cases[id.rawValue, default: [:]][job.contestant] = measurement
            }
        }
        return results
    }

    // MARK: Contestants

    /// The code without a container.
    static func handWritten(_ id: AsyncCaseID) async -> @Sendable (Int) async -> UInt64 {
        switch id {
        case .singleton:
            let stored = Task { await makeLoggerAsync() }
            _ = await stored.value
            return { n in
                let start = nanosecondsNow()
                for _ in 0..<n { blackHole(await stored.value) }
                return nanosecondsNow() - start
            }
        case .transient:
            return { n in
                let start = nanosecondsNow()
                for _ in 0..<n { blackHole(await AsyncLeaf()) }
                return nanosecondsNow() - start
            }
        case .transientFloor:
            return { n in
                let start = nanosecondsNow()
                for _ in 0..<n {
                    let frame = FloorFrame(parent: FloorFrame.top)
                    blackHole(await FloorFrame.$top.withValue(frame) { await AsyncLeaf() })
                }
                return nanosecondsNow() - start
            }
        case .waiters:
            return { batches in
                let gates = (0..<batches).map { _ in BuildGate(waiters: waitersPerBuild) }
                let start = nanosecondsNow()
                for gate in gates {
                    let build = Task {
                        await gate.buildMayFinish()
                        return SlowService()
                    }
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<waitersPerBuild {
                            group.addTask {
                                gate.arrive()
                                blackHole(await build.value)
                            }
                        }
                    }
                }
                return nanosecondsNow() - start
            }
        }
    }

    /// WeaveDI: `registerAsync` and `resolveAsync` on a container of its own per case.
    static func weaveDI(_ id: AsyncCaseID) async -> @Sendable (Int) async -> UInt64 {
        switch id {
        case .singleton:
            let container = Container()
            container.registerAsync((any Logging).self, scope: .singleton) { await makeLoggerAsync() }
            _ = await resolve((any Logging).self, in: container)
            return { n in
                let start = nanosecondsNow()
                for _ in 0..<n { blackHole(await resolve((any Logging).self, in: container)) }
                return nanosecondsNow() - start
            }
        case .transient, .transientFloor:
            let container = Container()
            container.registerAsync(AsyncLeaf.self) { await AsyncLeaf() }
            return { n in
                let start = nanosecondsNow()
                for _ in 0..<n { blackHole(await resolve(AsyncLeaf.self, in: container)) }
                return nanosecondsNow() - start
            }
        case .waiters:
            return { batches in
                // One container per batch, registered before the clock starts.
                let setups = (0..<batches).map { _ -> (Container, BuildGate) in
                    let container = Container()
                    let gate = BuildGate(waiters: waitersPerBuild)
                    container.registerAsync(SlowService.self, scope: .singleton) {
                        await gate.buildMayFinish()
                        return SlowService()
                    }
                    return (container, gate)
                }
                let start = nanosecondsNow()
                for (container, gate) in setups {
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<waitersPerBuild {
                            group.addTask {
                                gate.arrive()
                                blackHole(await resolve(SlowService.self, in: container))
                            }
                        }
                    }
                }
                return nanosecondsNow() - start
            }
        }
    }

    /// `resolveAsync`, which cannot fail here: a failure stops the benchmark.
    @inline(__always)
    static func resolve<T>(_ type: T.Type, in container: Container) async -> T {
        do {
            return try await container.resolveAsync(type)
        } catch {
            fatalError("resolveAsync(\(type)) failed: \(error)")
        }
    }

    // MARK: Measuring

    /// Calibrates each job to a round of `settings.roundNanoseconds`, warms each up, then times
    /// `settings.rounds` rounds in which every job runs once (starting with a different job each
    /// round); reports each job's median per operation. Allocations are counted afterwards in an
    /// untimed pass (process-wide: whatever the runtime allocates for the tasks counts).
    static func measureInterleaved(_ settings: Settings, _ jobs: [AsyncJob]) async -> [Measurement] {
        var counts: [Int] = []
        for job in jobs {
            job.mode.enter()
            counts.append(await calibratedUnits(settings, job.run))
            job.mode.leave()
        }
        for (job, n) in zip(jobs, counts) {
            job.mode.enter()
            _ = await job.run(n) // warm-up
            job.mode.leave()
        }
        var samples = Array(repeating: [Double](), count: jobs.count)
        for round in 0..<settings.rounds {
            for offset in 0..<jobs.count {
                let index = (round + offset) % jobs.count
                let job = jobs[index]
                job.mode.enter()
                let elapsed = await job.run(counts[index])
                job.mode.leave()
                samples[index].append(Double(elapsed) / Double(counts[index] * job.id.operationsPerUnit))
            }
        }
        var measurements: [Measurement] = []
        for (index, job) in jobs.enumerated() {
            let sorted = samples[index].sorted()
            let units = min(counts[index], max(1, 100_000 / job.id.operationsPerUnit))
            job.mode.enter()
            let allocations = await countAllocations(units * job.id.operationsPerUnit) { _ = await job.run(units) }
            job.mode.leave()
            measurements.append(
                Measurement(
                    medianNanoseconds: sorted[sorted.count / 2],
                    minNanoseconds: sorted[0],
                    maxNanoseconds: sorted[sorted.count - 1],
                    rounds: settings.rounds,
                    operationsPerRound: counts[index] * job.id.operationsPerUnit,
                    allocationsPerOperation: allocations))
        }
        return measurements
    }

    /// How many units make a round of `settings.roundNanoseconds` (see `calibratedCount`).
    static func calibratedUnits(_ settings: Settings, _ run: @Sendable (Int) async -> UInt64) async -> Int {
        var n = 1
        var elapsed: UInt64 = 0
        while true {
            elapsed = await run(n)
            if elapsed > 1_000_000 || n >= 1 << 30 { break }
            n *= elapsed < 100_000 ? 16 : 2
        }
        return max(1, Int(Double(n) * Double(settings.roundNanoseconds) / Double(max(elapsed, 1))))
    }

    /// Allocation calls per operation made by `body`, which performs `operations` operations.
    static func countAllocations(_ operations: Int, _ body: () async -> Void) async -> Double? {
        guard weavedi_alloc_counting_available() != 0 else { return nil }
        weavedi_alloc_set_counting(1)
        let before = weavedi_alloc_count()
        await body()
        let after = weavedi_alloc_count()
        weavedi_alloc_set_counting(0)
        return Double(after - before) / Double(operations)
    }

    static func report(_ text: String) {
        FileHandle.standardError.write(Data("\(text)\n".utf8))
    }

    // MARK: Report

    /// The goals, in the shape of the synchronous ones (WeaveDI ÷ hand-written).
    static func goals(_ r: AsyncResults) -> [GoalCheck] {
        AsyncCaseID.allCases.compactMap { id in
            guard let goal = id.goal, let hand = r.median(id, Contestants.handWritten) else { return nil }
            let plain = r.median(id, Contestants.weaveDI).map { $0 / hand }
            let optimized = r.median(id, Contestants.weaveDIOptimized).map { $0 / hand }
            return GoalCheck(
                goal: "\(id == .singleton ? "Async singleton" : "Async transient"): WeaveDI ÷ hand-written",
                weaveDI: plain, weaveDIOptimized: optimized, target: goal.target,
                metByDefault: plain.map(goal.met), metOptimized: optimized.map(goal.met))
        }
    }

    /// The async section of the results: one table, empty when no async case ran.
    static func markdown(_ r: AsyncResults) -> String {
        guard !r.cases.isEmpty else { return "" }
        var out = "Async factories: `resolveAsync` from a nonisolated async context (no actor hops), "
        out += "median ns per operation, contestants interleaved; allocations per operation from a separate pass. "
        out += "The hand-written contestant awaits a stored, finished `Task`'s `.value` (singleton), calls the async "
        out += "initializer (transient), and has 1 000 tasks await one `Task`'s `.value` (waiters). In the waiter case "
        out += "each build of the singleton lasts until all 1 000 tasks have started asking.\n\n"
        out +=
            "| Case | " + contestants.joined(separator: " | ")
            + " | WeaveDI ÷ hand-written | Goal | met | allocations (hand-written, WeaveDI, optimized) |\n"
        out += "|" + String(repeating: " --- |", count: contestants.count + 5) + "\n"
        for id in AsyncCaseID.allCases {
            guard let row = r.cases[id.rawValue] else { continue }
            var cells = [id.title]
            cells += contestants.map { name in row[name].map { Report.format($0.medianNanoseconds) } ?? "—" }
            let hand = row[Contestants.handWritten]?.medianNanoseconds
            func ratio(_ name: String) -> Double? { row[name].flatMap { w in hand.map { w.medianNanoseconds / $0 } } }
            let plain = ratio(Contestants.weaveDI)
            let optimized = ratio(Contestants.weaveDIOptimized)
            cells.append(plain.map { "\(Report.format($0))× (\(optimized.map(Report.format) ?? "—")×)" } ?? "—")
            if let goal = id.goal {
                cells.append(goal.target)
                cells.append("\(Report.mark(plain.map(goal.met))) (\(Report.mark(optimized.map(goal.met))))")
            } else {
                cells += ["—", "—"]
            }
            cells.append(
                contestants.map { name in
                    row[name]?.allocationsPerOperation.map(Report.format) ?? "—"
                }.joined(separator: ", "))
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return out
    }

    // MARK: Profiling

    static let profiledCases = AsyncCaseID.allCases.map(\.rawValue)

    /// Runs one WeaveDI async case `iterations` times (waiters: in batches of 1 000) in a plain
    /// loop, for a profiler.
    static func profile(_ name: String, iterations: Int) async -> Bool {
        guard let id = AsyncCaseID(rawValue: name) else { return false }
        let run = await weaveDI(id)
        _ = await run(id == .waiters ? iterations / waitersPerBuild : iterations)
        return true
    }
}

/// Holds a singleton's build until `waiters` tasks have arrived: the build calls
/// `buildMayFinish()`, each waiting task calls `arrive()` just before it asks for the singleton,
/// and the last arrival lets the build finish. Every arrival but the last few is therefore
/// waiting on an unfinished build.
final class BuildGate: @unchecked Sendable {
    private let lock = NSLock()
    private let waiters: Int
    private var arrived = 0 // guarded by `lock`
    private var open = false // guarded by `lock`
    private var held: CheckedContinuation<Void, Never>? // guarded by `lock`

    init(waiters: Int) { self.waiters = waiters }

    func arrive() {
        let resume: CheckedContinuation<Void, Never>? = lock.withLock {
            arrived += 1
            guard arrived == waiters else { return nil }
            open = true
            defer { held = nil }
            return held
        }
        resume?.resume()
    }

    func buildMayFinish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = lock.withLock {
                if !open { held = continuation }
                return open
            }
            if isOpen { continuation.resume() }
        }
    }
}
