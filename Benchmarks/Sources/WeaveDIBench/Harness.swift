import AllocationCounter
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: Keeping results alive

// `@_optimize(none)` stops the optimizer from seeing that the argument is unused (function
// signature optimization would otherwise drop it even across `@inline(never)`), so the work that
// produced it cannot be deleted. Every contestant pays the same call.

@inline(never) @_optimize(none)
func blackHole(_ value: AnyObject?) {}

@inline(never) @_optimize(none)
func blackHole(_ value: Int) {}

// MARK: Clock

@inline(__always)
func nanosecondsNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

// MARK: Measuring

/// How hard to measure.
struct Settings: Sendable {
    /// Timed rounds per contestant; the median round is reported.
    var rounds = 15
    /// How long one round should take.
    var roundNanoseconds: UInt64 = 20_000_000
    /// Rounds of the two-thread throughput test.
    var threadRounds = 9

    /// When set, only these cases run (`--only singleton,transient`; `threads` for the scaling test).
    var only: Set<String>?

    static let quick = Settings(rounds: 5, roundNanoseconds: 5_000_000, threadRounds: 3)

    func wants(_ id: CaseID) -> Bool { only?.contains(id.rawValue) ?? true }

    var wantsScaling: Bool { only?.contains("threads") ?? true }
}

/// One contestant's numbers for one case.
struct Measurement: Codable, Sendable {
    /// Median over the rounds, in nanoseconds per operation.
    var medianNanoseconds: Double
    var minNanoseconds: Double
    var maxNanoseconds: Double
    var rounds: Int
    var operationsPerRound: Int
    /// Heap allocation calls per operation, from a separate untimed pass (nil where not countable).
    var allocationsPerOperation: Double?
    /// Heap bytes still in use after the operations, per operation (for registrations).
    var retainedBytesPerOperation: Double?
    /// Whether the benchmark's own factory-closure cost was subtracted (registration, bootstrap).
    var factoryClosureSubtracted: Bool? = nil
}

/// How many operations make a round of `settings.roundNanoseconds` for `body(n)` (which performs
/// the operation `n` times): grows n until a run takes a measurable time, then scales.
func calibratedCount(_ settings: Settings, _ body: (Int) -> Void) -> Int {
    var n = 1
    var elapsed: UInt64 = 0
    while true {
        let start = nanosecondsNow()
        body(n)
        elapsed = nanosecondsNow() - start
        if elapsed > 1_000_000 || n >= 1 << 30 { break }
        n *= elapsed < 100_000 ? 16 : 2
    }
    return max(1, Int(Double(n) * Double(settings.roundNanoseconds) / Double(max(elapsed, 1))))
}

/// Runs `body(n)` in calibrated rounds on its own and returns the median time per operation (for
/// the two-thread test's single-thread reference; the cases are timed by `measureInterleaved`).
func measure(_ settings: Settings, _ body: (Int) -> Void) -> Measurement {
    let n = calibratedCount(settings, body)
    body(n) // warm-up round
    var samples: [Double] = []
    for _ in 0..<settings.rounds {
        let start = nanosecondsNow()
        body(n)
        samples.append(Double(nanosecondsNow() - start) / Double(n))
    }
    samples.sort()
    return Measurement(
        medianNanoseconds: samples[samples.count / 2],
        minNanoseconds: samples[0],
        maxNanoseconds: samples[samples.count - 1],
        rounds: settings.rounds,
        operationsPerRound: n,
        allocationsPerOperation: nil)
}

/// Allocation calls per operation made by `body(n) / n`, or nil where the platform cannot count.
func countAllocations(_ n: Int, _ body: (Int) -> Void) -> Double? {
    guard weavedi_alloc_counting_available() != 0 else { return nil }
    weavedi_alloc_set_counting(1)
    let before = weavedi_alloc_count()
    body(n)
    let after = weavedi_alloc_count()
    weavedi_alloc_set_counting(0)
    return Double(after - before) / Double(n)
}

/// Heap bytes in use, or nil where the platform cannot tell.
func heapInUse() -> Int64? {
    let value = weavedi_heap_in_use()
    return value < 0 ? nil : value
}

// MARK: Threads

/// Runs `work(threadIndex)` on `count` new threads started together; returns the wall time in
/// nanoseconds from the common start until the last one finished.
func runOnThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> UInt64 {
    let start = StartGate(parties: count)
    let done = DispatchGroup()
    let timing = TimingBox()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.arriveAndWait(timing)
            work(index)
            done.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    done.wait()
    return nanosecondsNow() - timing.startedAt
}

/// Releases every thread at once, after all of them have started, and records when.
final class StartGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting = 0
    private let parties: Int
    private var open = false

    init(parties: Int) { self.parties = parties }

    func arriveAndWait(_ timing: TimingBox) {
        condition.lock()
        waiting += 1
        if waiting == parties {
            timing.startedAt = nanosecondsNow()
            open = true
            condition.broadcast()
        }
        while !open { condition.wait() }
        condition.unlock()
    }
}

/// Written once under the gate's lock before any worker starts, read after all joined.
final class TimingBox: @unchecked Sendable {
    var startedAt: UInt64 = 0
}

/// Times `body` on a fresh value from `setup` per round (setup untimed) and reports nanoseconds
/// per operation, where one `body` performs `operations` operations. Also reports the heap bytes
/// `body` left in use per operation (median over the rounds), for registrations.
func measureBatch<Subject>(
    _ settings: Settings,
    operations: Int,
    setup: () -> Subject,
    body: (Subject) -> Void
) -> Measurement {
    let rounds = max(3, settings.rounds / 2)
    do {
        let warm = setup()
        body(warm)
    }
    var samples: [Double] = []
    var retained: [Double] = []
    for _ in 0..<rounds {
        let subject = setup()
        let heapBefore = heapInUse()
        let start = nanosecondsNow()
        body(subject)
        let elapsed = nanosecondsNow() - start
        if let heapBefore, let heapAfter = heapInUse() {
            retained.append(Double(heapAfter - heapBefore) / Double(operations))
        }
        samples.append(Double(elapsed) / Double(operations))
        withExtendedLifetime(subject) {}
    }
    samples.sort()
    retained.sort()
    let subject = setup()
    let allocations = countAllocations(1) { _ in body(subject) }
    withExtendedLifetime(subject) {}
    return Measurement(
        medianNanoseconds: samples[samples.count / 2],
        minNanoseconds: samples[0],
        maxNanoseconds: samples[samples.count - 1],
        rounds: rounds,
        operationsPerRound: operations,
        allocationsPerOperation: allocations.map { $0 / Double(operations) },
        retainedBytesPerOperation: retained.isEmpty ? nil : retained[retained.count / 2])
}

/// How throughput changes when a second thread resolves at the same time.
struct Scaling: Codable, Sendable {
    /// One thread alone, nanoseconds per operation.
    var oneThreadNanoseconds: Double
    /// Two threads resolving different types: throughput relative to one thread (2.0 is perfect).
    var differentTypesRatio: Double
    /// Two threads resolving the same type (sharing one instance's reference count).
    var sameTypeRatio: Double
    var operationsPerThread: Int
    var rounds: Int
}

/// Runs `different(thread, n)` on one thread and on two at once (each thread its own type), and
/// `sameType(thread, n)` on two at once, in interleaved rounds; reports median throughput ratios.
func measureScaling(
    _ settings: Settings,
    _ different: @escaping @Sendable (_ thread: Int, _ n: Int) -> Void,
    sameType: @escaping @Sendable (_ thread: Int, _ n: Int) -> Void
) -> Scaling {
    let single = measure(Settings(rounds: 3, roundNanoseconds: settings.roundNanoseconds, threadRounds: 0, only: nil)) {
        different(0, $0)
    }
    // Each thread works for about two round lengths, so thread start-up is noise.
    let n = max(1000, Int(2 * Double(settings.roundNanoseconds) / max(single.medianNanoseconds, 0.1)))
    var oneThread: [Double] = []
    var differentRatios: [Double] = []
    var sameRatios: [Double] = []
    for _ in 0..<settings.threadRounds {
        let t1 = Double(runOnThreads(1) { different($0, n) })
        let t2 = Double(runOnThreads(2) { different($0, n) })
        let t2same = Double(runOnThreads(2) { sameType($0, n) })
        oneThread.append(t1 / Double(n))
        differentRatios.append(2 * t1 / t2)
        sameRatios.append(2 * t1 / t2same)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return Scaling(
        oneThreadNanoseconds: median(oneThread),
        differentTypesRatio: median(differentRatios),
        sameTypeRatio: median(sameRatios),
        operationsPerThread: n,
        rounds: settings.threadRounds)
}
