import Foundation
import Testing
import WeaveDI

// Features whose configure() loads another feature, forming a cycle: each test has its own loader
// and features (the features find their loader through these constants).

private let twoLoader = FeatureModuleLoader()
private let threeLoader = FeatureModuleLoader()
private let listLoader = FeatureModuleLoader()
private let crossLoader = FeatureModuleLoader()
private let freshLoader = FeatureModuleLoader()

/// Whether `FreshB` still loads `FreshA` (the cycle), so a later attempt can succeed.
private let freshCycle = CycleFlag(true)

final class CycleFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag: Bool
    init(_ flag: Bool) { self.flag = flag }
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
    /// Sets the flag; whether it was clear.
    func claim() -> Bool {
        lock.withLock {
            defer { flag = true }
            return !flag
        }
    }
}

private enum TwoA: FeatureModule {
    static let name = "Cycle.TwoA"
    static func configure() async throws { try await twoLoader.load("Cycle.TwoB") }
}
private enum TwoB: FeatureModule {
    static let name = "Cycle.TwoB"
    static func configure() async throws { try await twoLoader.load("Cycle.TwoA") }
}

private enum ThreeA: FeatureModule {
    static let name = "Cycle.ThreeA"
    static func configure() async throws { try await threeLoader.load("Cycle.ThreeB") }
}
private enum ThreeB: FeatureModule {
    static let name = "Cycle.ThreeB"
    static func configure() async throws { try await threeLoader.load("Cycle.ThreeC") }
}
private enum ThreeC: FeatureModule {
    static let name = "Cycle.ThreeC"
    static func configure() async throws { try await threeLoader.load("Cycle.ThreeA") }
}

/// ListA depends on ListB (its dependencies list); ListB's configure() loads ListA.
private enum ListA: FeatureModule {
    static let name = "Cycle.ListA"
    static func dependencies() -> [String] { ["Cycle.ListB"] }
    static func configure() async throws {}
}
private enum ListB: FeatureModule {
    static let name = "Cycle.ListB"
    static func configure() async throws { try await listLoader.load("Cycle.ListA") }
}

/// Loaded from two callers at once: each configure() gives the other caller time to start, then
/// loads the other feature, whose configuration the other caller's task runs.
private enum CrossA: FeatureModule {
    static let name = "Cycle.CrossA"
    static func configure() async throws {
        try await Task.sleep(for: .milliseconds(100))
        try await crossLoader.load("Cycle.CrossB")
    }
}
private enum CrossB: FeatureModule {
    static let name = "Cycle.CrossB"
    static func configure() async throws {
        try await Task.sleep(for: .milliseconds(100))
        try await crossLoader.load("Cycle.CrossA")
    }
}

private enum FreshA: FeatureModule {
    static let name = "Cycle.FreshA"
    static func configure() async throws { try await freshLoader.load("Cycle.FreshB") }
}
private enum FreshB: FeatureModule {
    static let name = "Cycle.FreshB"
    static func configure() async throws {
        if freshCycle.value { try await freshLoader.load("Cycle.FreshA") }
    }
}

/// How a load ended, or that it had not ended after the deadline.
enum LoadOutcome: Sendable {
    case loaded
    case threw(any Error)
    case hung
}

/// Runs `body`, giving up (without waiting for it further) after `seconds`.
func outcome(within seconds: Double = 10, _ body: @escaping @Sendable () async throws -> Void) async -> LoadOutcome {
    let claimed = CycleFlag(false)
    return await withCheckedContinuation { (continuation: CheckedContinuation<LoadOutcome, Never>) in
        let resume: @Sendable (LoadOutcome) -> Void = { value in
            if claimed.claim() { continuation.resume(returning: value) }
        }
        Task {
            do {
                try await body()
                resume(.loaded)
            } catch { resume(.threw(error)) }
        }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            resume(.hung)
        }
    }
}

/// The cycle's path, or a description of what happened instead.
func cyclePath(_ outcome: LoadOutcome) -> Result<[String], CycleMismatch> {
    switch outcome {
    case .threw(let error as FeatureModuleError):
        if case .circularDependency(let path) = error { return .success(path) }
        return .failure(CycleMismatch("threw \(error)"))
    case .threw(let error): return .failure(CycleMismatch("threw \(error)"))
    case .loaded: return .failure(CycleMismatch("loaded"))
    case .hung: return .failure(CycleMismatch("still waiting after the deadline"))
    }
}

struct CycleMismatch: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite("Feature module cycles made by configure()")
struct FeatureCycleTests {
    @Test("two features whose configure() loads the other: the cycle is thrown at once, with its path")
    func cycleOfTwo() async throws {
        try await twoLoader.register([TwoA.self, TwoB.self])
        let first = await outcome { try await twoLoader.load("Cycle.TwoA") }
        #expect(try cyclePath(first).get() == ["Cycle.TwoA", "Cycle.TwoB", "Cycle.TwoA"])
        #expect(await twoLoader.isLoaded("Cycle.TwoA") == false)
        #expect(await twoLoader.isLoaded("Cycle.TwoB") == false)
        // Nothing was left in flight: later callers get the error again, from either side.
        let again = await outcome { try await twoLoader.load("Cycle.TwoB") }
        #expect(try cyclePath(again).get() == ["Cycle.TwoB", "Cycle.TwoA", "Cycle.TwoB"])
        let all = await outcome { try await twoLoader.loadAll() }
        #expect(try cyclePath(all).get().count == 3)
    }

    @Test("a cycle of three through configure()")
    func cycleOfThree() async throws {
        try await threeLoader.register([ThreeA.self, ThreeB.self, ThreeC.self])
        let result = await outcome { try await threeLoader.load("Cycle.ThreeA") }
        #expect(try cyclePath(result).get() == ["Cycle.ThreeA", "Cycle.ThreeB", "Cycle.ThreeC", "Cycle.ThreeA"])
        for name in ["Cycle.ThreeA", "Cycle.ThreeB", "Cycle.ThreeC"] {
            #expect(await threeLoader.isLoaded(name) == false)
        }
        let again = await outcome { try await threeLoader.load("Cycle.ThreeC") }
        #expect(try cyclePath(again).get() == ["Cycle.ThreeC", "Cycle.ThreeA", "Cycle.ThreeB", "Cycle.ThreeC"])
    }

    @Test("a cycle through a feature's dependencies list and a configure()")
    func cycleThroughTheDependenciesList() async throws {
        try await listLoader.register([ListA.self, ListB.self])
        let result = await outcome { try await listLoader.load("Cycle.ListA") }
        #expect(try cyclePath(result).get() == ["Cycle.ListB", "Cycle.ListA", "Cycle.ListB"])
        #expect(await listLoader.loadedModules.isEmpty)
        let again = await outcome { try await listLoader.load("Cycle.ListB") }
        #expect(try cyclePath(again).get() == ["Cycle.ListB", "Cycle.ListA", "Cycle.ListB"])
    }

    @Test("two callers at once, each configuring one side: both get the cycle, neither hangs")
    func cycleAcrossTasks() async throws {
        try await crossLoader.register([CrossA.self, CrossB.self])
        async let a = outcome { try await crossLoader.load("Cycle.CrossA") }
        async let b = outcome { try await crossLoader.load("Cycle.CrossB") }
        let (first, second) = await (a, b)
        let paths = [try cyclePath(first).get(), try cyclePath(second).get()]
        for path in paths {
            #expect(Set(path) == ["Cycle.CrossA", "Cycle.CrossB"] && path.count == 3 && path.first == path.last)
        }
        #expect(await crossLoader.loadedModules.isEmpty)
    }

    @Test("after a cycle, a later load is a fresh attempt")
    func freshAttemptAfterACycle() async throws {
        try await freshLoader.register([FreshA.self, FreshB.self])
        let failed = await outcome { try await freshLoader.load("Cycle.FreshA") }
        #expect(try cyclePath(failed).get() == ["Cycle.FreshA", "Cycle.FreshB", "Cycle.FreshA"])
        freshCycle.value = false
        let retried = await outcome { try await freshLoader.load("Cycle.FreshA") }
        guard case .loaded = retried else {
            Issue.record("\(retried)")
            return
        }
        #expect(await freshLoader.loadedModules == ["Cycle.FreshB", "Cycle.FreshA"])
    }
}
