import Foundation
import WeaveDI

// weavedi-bench: WeaveDI, Swinject, swift-dependencies and hand-written code, side by side.
//
//   swift run -c release --package-path Benchmarks weavedi-bench [--quick] [--only CASES] [--json PATH] [--markdown PATH]
//   swift run -c release --package-path Benchmarks weavedi-bench --profile CASE [--optimized] [--iterations N]
//
// --profile runs one WeaveDI case in a plain loop (no harness), for callgrind or perf.
// The async cases (AsyncCases.swift) run last, from a nonisolated async context; `--only` with
// async ids alone writes results/async.{json,md} and leaves latest.* alone.

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ flag: String) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if let profiled = option("--profile") {
    if arguments.contains("--optimized") { UnifiedRegistry.shared.enableOptimization() }
    let iterations = option("--iterations").flatMap(Int.init) ?? 1_000_000
    if AsyncCases.profiledCases.contains(profiled) {
        _ = await AsyncCases.profile(profiled, iterations: iterations)
        exit(0)
    }
    if profiled == "swinject-registration" {
        SwinjectContestant.profileRegistration(iterations: iterations)
        exit(0)
    }
    guard WeaveDIContestant.profile(profiled, iterations: iterations) else {
        print(
            "Unknown case \(profiled); use one of: \((WeaveDIContestant.profiledCases + AsyncCases.profiledCases).joined(separator: ", "))"
        )
        exit(2)
    }
    exit(0)
}

var settings = arguments.contains("--quick") ? Settings.quick : Settings()
if let only = option("--only") { settings.only = Set(only.split(separator: ",").map(String.init)) }
let resultsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("results")
let onlyAsync = AsyncCases.onlyAsync(settings)
let jsonPath = option("--json") ?? resultsFolder.appendingPathComponent(onlyAsync ? "async.json" : "latest.json").path
let markdownPath =
    option("--markdown") ?? resultsFolder.appendingPathComponent(onlyAsync ? "async.md" : "latest.md").path

func progress(_ text: String) {
    FileHandle.standardError.write(Data("\(text)\n".utf8))
}

let fillers = makeFillerTypes(10_000)
var results = Results()
let started = Date()

// Each contestant sets up its containers and files its loops; the two-thread test runs on the spot.
// Then every case is timed with all its contestants interleaved (see Schedule.swift), and the
// registration batches, which churn the heap, run last.
progress("hand-written…")
HandWrittenContestant.run(settings, results: &results)
progress("WeaveDI (default)…")
WeaveDIContestant.run(settings, fillers: fillers, results: &results, name: Contestants.weaveDI)
progress("WeaveDI (optimized)…")
currentMode = Mode(
    enter: { UnifiedRegistry.shared.enableOptimization() },
    leave: { UnifiedRegistry.shared.disableOptimization() })
currentMode.enter()
WeaveDIContestant.run(settings, fillers: fillers, results: &results, name: Contestants.weaveDIOptimized)
currentMode.leave()
currentMode = .plain
progress("Swinject…")
SwinjectContestant.run(settings, fillers: fillers, results: &results)
progress("swift-dependencies…")
DependenciesContestant.run(settings, results: &results)
progress("timing every case, contestants interleaved…")
results.runTimedJobs(settings, progress: progress)
results.factoryClosure = FactoryClosureCost.measure(settings, fillers: fillers)
progress("registration batches…")
results.runBatchJobs(progress: progress)
if !AsyncCases.wanted(settings).isEmpty { progress("async cases, contestants interleaved…") }
let asyncResults = await AsyncCases.run(settings)

let goals = Report.goals(results)
let machine = MachineInfo.current()
let header = """
    weavedi-bench, \(ISO8601DateFormatter().string(from: started)), \(machine.summary), \
    \(settings.rounds) rounds per case, release build, took \(Int(Date().timeIntervalSince(started))) s
    """
let asyncMarkdown = AsyncCases.markdown(asyncResults)
let markdown =
    onlyAsync
    ? header + "\n\n" + asyncMarkdown
    : Report.markdown(results, goals: goals, header: header) + (asyncMarkdown.isEmpty ? "" : "\n" + asyncMarkdown)
print(markdown)

struct Output: Codable {
    var generatedAt: String
    var machine: MachineInfo
    var rounds: Int
    var roundMilliseconds: Double
    var cases: [String: [String: Measurement]]
    var scaling: [String: Scaling]
    /// The benchmark's own factory-closure cost, already subtracted from registration and bootstrap.
    var factoryClosure: Measurement?
    var goals: [GoalCheck]
    /// The async cases (AsyncCases.swift): case id -> contestant -> numbers, and their goals.
    var asyncCases: [String: [String: Measurement]]
    var asyncGoals: [GoalCheck]
}

let output = Output(
    generatedAt: ISO8601DateFormatter().string(from: started), machine: machine,
    rounds: settings.rounds, roundMilliseconds: Double(settings.roundNanoseconds) / 1_000_000,
    cases: results.cases, scaling: results.scaling, factoryClosure: results.factoryClosure, goals: goals,
    asyncCases: asyncResults.cases, asyncGoals: AsyncCases.goals(asyncResults))
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
do {
    try FileManager.default.createDirectory(
        at: URL(fileURLWithPath: jsonPath).deletingLastPathComponent(), withIntermediateDirectories: true)
    try encoder.encode(output).write(to: URL(fileURLWithPath: jsonPath))
    try Data((markdown + "\n").utf8).write(to: URL(fileURLWithPath: markdownPath))
    progress("Wrote \(jsonPath) and \(markdownPath)")
    // The async section on its own, for publish_results.py, whichever run produced it.
    if !asyncMarkdown.isEmpty && !onlyAsync && option("--markdown") == nil {
        let asyncPath = resultsFolder.appendingPathComponent("async.md").path
        try Data((header + "\n\n" + asyncMarkdown + "\n").utf8).write(to: URL(fileURLWithPath: asyncPath))
        progress("Wrote \(asyncPath)")
    }
} catch {
    progress("Could not write results: \(error)")
    exit(1)
}
