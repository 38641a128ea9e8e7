// Contestants do not time their cases on the spot: they hand the loops over, and every case is then
// timed with all its contestants interleaved, round by round. Timing one contestant after another
// let the machine's state (a heap the previous contestant churned, the clock speed) differ between
// them, and the ratios moved by ±20% between runs; interleaved rounds see the same conditions.

/// Switches a contestant's mode on and off around each of its rounds (WeaveDI's optimized mode is a
/// process-wide switch).
struct Mode: Sendable {
    var enter: @Sendable () -> Void = {}
    var leave: @Sendable () -> Void = {}

    static let plain = Mode()
}

/// The mode of the contestant being set up; jobs created meanwhile run in it.
nonisolated(unsafe) var currentMode = Mode.plain

/// One contestant's loop for one timed case.
struct TimedJob {
    let id: CaseID
    let contestant: String
    let mode: Mode
    /// Performs the operation `n` times.
    let body: (Int) -> Void
}

/// One contestant's batch case (registration, bootstrap): run after every timed case, because a
/// batch churns the heap.
struct BatchJob {
    let id: CaseID
    let contestant: String
    let mode: Mode
    let run: () -> Measurement
}

/// A loop to time later; `Results.record` files it.
struct Timed {
    let body: (Int) -> Void
}

/// A batch to run later; `Results.record` files it.
struct Batch {
    let run: () -> Measurement
}

/// `body(n)` performs the operation `n` times; it is timed later, interleaved with the other
/// contestants of the same case.
func timed(_ body: @escaping (Int) -> Void) -> Timed { Timed(body: body) }

/// A registration-style batch (see `measureBatch`), run after every timed case.
func batch<Subject>(
    _ settings: Settings, operations: Int, setup: @escaping () -> Subject, body: @escaping (Subject) -> Void
) -> Batch {
    Batch { measureBatch(settings, operations: operations, setup: setup, body: body) }
}

extension Results {
    mutating func record(_ id: CaseID, _ contestant: String, _ timed: Timed) {
        timedJobs.append(TimedJob(id: id, contestant: contestant, mode: currentMode, body: timed.body))
    }

    mutating func record(_ id: CaseID, _ contestant: String, _ batch: Batch) {
        batchJobs.append(BatchJob(id: id, contestant: contestant, mode: currentMode, run: batch.run))
    }

    /// Times every filed loop, case by case, all contestants of a case in interleaved rounds.
    mutating func runTimedJobs(_ settings: Settings, progress: (String) -> Void) {
        for id in CaseID.allCases {
            let jobs = timedJobs.filter { $0.id == id }
            guard !jobs.isEmpty else { continue }
            progress("  \(id.rawValue): \(jobs.map(\.contestant).joined(separator: ", "))")
            for (job, measurement) in zip(jobs, measureInterleaved(settings, jobs)) {
                record(id, job.contestant, measurement)
            }
        }
        timedJobs = []
    }

    /// Runs the filed batches; the generic registration's counts are given less the benchmark's
    /// own factory-closure allocation (``factoryClosure``, measured before).
    mutating func runBatchJobs(progress: (String) -> Void) {
        for job in batchJobs {
            progress("  \(job.id.rawValue): \(job.contestant)")
            job.mode.enter()
            let measurement = job.run()
            job.mode.leave()
            record(
                job.id, job.contestant,
                job.id == .registrationGeneric ? measurement.subtracting(factoryClosure) : measurement)
        }
        batchJobs = []
    }
}

/// Calibrates each job to a round of `settings.roundNanoseconds`, warms each up, then times
/// `settings.rounds` rounds in which every job runs once (starting with a different job each
/// round); reports each job's median. Allocations are counted afterwards in untimed passes.
func measureInterleaved(_ settings: Settings, _ jobs: [TimedJob]) -> [Measurement] {
    let counts = jobs.map { job -> Int in
        job.mode.enter()
        defer { job.mode.leave() }
        return calibratedCount(settings, job.body)
    }
    for (job, n) in zip(jobs, counts) {
        job.mode.enter()
        job.body(n) // warm-up
        job.mode.leave()
    }
    var samples = Array(repeating: [Double](), count: jobs.count)
    for round in 0..<settings.rounds {
        for offset in 0..<jobs.count {
            let index = (round + offset) % jobs.count
            let job = jobs[index]
            job.mode.enter()
            let start = nanosecondsNow()
            job.body(counts[index])
            let elapsed = nanosecondsNow() - start
            job.mode.leave()
            samples[index].append(Double(elapsed) / Double(counts[index]))
        }
    }
    return jobs.indices.map { index in
        let sorted = samples[index].sorted()
        let job = jobs[index]
        job.mode.enter()
        defer { job.mode.leave() }
        return Measurement(
            medianNanoseconds: sorted[sorted.count / 2],
            minNanoseconds: sorted[0],
            maxNanoseconds: sorted[sorted.count - 1],
            rounds: settings.rounds,
            operationsPerRound: counts[index],
            allocationsPerOperation: countAllocations(min(counts[index], 100_000), job.body))
    }
}
