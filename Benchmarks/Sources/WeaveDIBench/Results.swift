/// The cases, in table order.
enum CaseID: String, CaseIterable, Codable, Sendable {
    case singleton
    /// What any function handing out a stored reference costs: a retain and a release.
    case returnedReference = "returned-reference"
    case named
    case transient
    /// A named transient, against the unnamed `transient` row.
    case namedTransient = "named-transient"
    case chain
    case amongOne = "among-1"
    case among10k = "among-10000"
    /// Registration as apps write it: concrete types, closures that capture nothing.
    case registration
    /// Registering new names on a type that already has 1 000, against the `registration` row.
    case namedRegistration = "named-registration"
    /// Registration from generic code, whose factory closures capture `T` (and allocate).
    case registrationGeneric = "registration-generic"
    case bootstrap
    /// `@Inject` access after the first, against reading a stored property.
    case injectAfterFirst = "inject-after-first"
    /// `@Injected(\.key)` read, against a swift-dependencies `@Dependency(\.key)` read.
    case injectedRead = "injected-read"
    /// `@Dependency(\.key)` read of a key bridged to the container (trait `Dependencies`), against
    /// a plain swift-dependencies key (its swift-dependencies column).
    case bridgedDependencyRead = "bridged-dependency-read"
    /// `@Injected(\.key)` read of the same bridged key, against the `injected-read` row.
    case bridgedInjectedRead = "bridged-injected-read"
    /// The two bridged reads after an override was set in each world and ended (in a test
    /// process between tests, say): reads skip a world's lookup again once no override set
    /// through it is alive.
    case bridgedDependencyReadAfterOverride = "bridged-dependency-read-after-override"
    case bridgedInjectedReadAfterOverride = "bridged-injected-read-after-override"
    /// The bridged `@Injected` read while an override of another bridged key, set through
    /// `withDependencies`, is alive somewhere (a `@Dependency` created inside one holds it, as a
    /// model made in a test does): counts are per key, so the read skips the lookup.
    case bridgedInjectedReadDuringOtherOverride = "bridged-injected-read-during-other-override"
    /// The bridged `@Injected` read while an override of the same key set through
    /// `withDependencies` is alive somewhere (held the same way, not visible to the reader): it
    /// then looks swift-dependencies' world up too. No goal; shows that cost.
    case bridgedInjectedReadDuringOverride = "bridged-injected-read-during-override"
    /// A server request: begin a request scope, resolve three request-scoped services (a unit of
    /// work and two repositories holding it), end the scope; against building the three by hand.
    case requestScope = "request-scope"
    /// A miss (`resolve` of an unregistered type, as an optional `@Factory` read does) among
    /// 2 000 registrations, then the same with an `onResolutionError` hook installed.
    case miss2k = "miss-2000"
    case missHook2k = "miss-hook-2000"
    /// The same among 100 000 registrations (10 000 types and 90 000 Factory keys).
    case miss100k = "miss-100000"
    case missHook100k = "miss-hook-100000"
    /// A transient registration whose factory takes one argument (a `String`), resolved with it.
    case argument1 = "argument-1"
    /// The same with three arguments (`String`, `Int`, `Bool`).
    case argument3 = "argument-3"
    /// All 10 contributions to one type (`resolveAll`), against a hand-written array of factories.
    case resolveAll10 = "resolve-all-10"
    /// A transient with one decorator, against the `transient` row plus the decorator's own cost
    /// (hand-written: the wrapper built around a new instance).
    case decorated
    /// The 3-level chain with every level graph-scoped (WeaveDI's `.graph`, Swinject's default
    /// `.graph`), against the hand-written initializer calls.
    case graphChain = "graph-chain"
    /// A transient registered by initializer (`register(_:initializer:)`) whose two parameters
    /// (a singleton and a transient) WeaveDI resolves, against the same built by hand.
    case autowired
    /// The same type registered with a factory closure that resolves each parameter itself:
    /// what `autowired` replaces (its goal is ≤ 1.1× this row).
    case autowiredByClosure = "autowired-by-closure"
    /// A transient whose `.test` context registration applies (forced for the running task),
    /// against the `transient` row's hand-written initializer call.
    case contextTest = "context-test"

    var title: String {
        switch self {
        case .singleton: return "Singleton resolution"
        case .returnedReference: return "Stored reference returned by a function (retain + release)"
        case .named: return "Named singleton resolution"
        case .transient: return "Transient resolution"
        case .namedTransient: return "Named transient resolution"
        case .chain: return "3-level transient chain"
        case .amongOne: return "Singleton among 1 registration"
        case .among10k: return "Singleton among 10 000 registrations"
        case .registration: return "Registration (per type, 10 000 concrete types)"
        case .namedRegistration: return "Named registration (per name, 10 000 new names on a type with 1 000)"
        case .registrationGeneric: return "Registration from generic code (per type, 10 000 types)"
        case .bootstrap: return "Bootstrap of 10 000 modules (ms)"
        case .injectAfterFirst: return "@Inject access after the first"
        case .injectedRead: return "@Injected(\\.key) read"
        case .bridgedDependencyRead: return "@Dependency(\\.key) read, bridged key (swift-dependencies: plain key)"
        case .bridgedInjectedRead: return "@Injected(\\.key) read, bridged key"
        case .bridgedDependencyReadAfterOverride:
            return "@Dependency(\\.key) read, bridged key, after overrides were set (swift-dependencies: plain key)"
        case .bridgedInjectedReadAfterOverride: return "@Injected(\\.key) read, bridged key, after overrides were set"
        case .bridgedInjectedReadDuringOtherOverride:
            return "@Injected(\\.key) read, bridged key, while another key's withDependencies override is alive"
        case .bridgedInjectedReadDuringOverride:
            return "@Injected(\\.key) read, bridged key, while a withDependencies override is alive elsewhere"
        case .requestScope: return "Request scope: begin, resolve 3 request-scoped, end"
        case .miss2k: return "Miss among 2 000 registrations"
        case .missHook2k: return "Miss among 2 000 registrations, onResolutionError hook installed"
        case .miss100k: return "Miss among 100 000 registrations"
        case .missHook100k: return "Miss among 100 000 registrations, onResolutionError hook installed"
        case .argument1: return "Transient resolution with 1 argument"
        case .argument3: return "Transient resolution with 3 arguments"
        case .resolveAll10: return "resolveAll of 10 transient contributions"
        case .decorated: return "Decorated transient resolution"
        case .graphChain: return "Graph-scoped 3-level chain"
        case .autowired: return "Autowired transient resolution (2 parameters)"
        case .autowiredByClosure: return "The same registered with a closure resolving each parameter"
        case .contextTest: return "Transient resolution of a .test context registration (forced for the task)"
        }
    }

    /// Converts nanoseconds per operation to the unit shown: the bootstrap is measured per module
    /// and shown in milliseconds per 10 000 modules.
    var displayScale: Double { self == .bootstrap ? 10_000 / 1_000_000 : 1 }
}

/// The contestants, in table order.
enum Contestants {
    static let handWritten = HandWrittenContestant.name
    static let weaveDI = "WeaveDI"
    static let weaveDIOptimized = "WeaveDI optimized"
    static let swinject = SwinjectContestant.name
    static let dependencies = DependenciesContestant.name
    static let all = [handWritten, weaveDI, weaveDIOptimized, swinject, dependencies]
    /// The hand-written baseline that returns an owned reference, as a resolution must.
    static let handWrittenReturned = "hand-written, returned reference"
    /// Rows of the two-thread table.
    static let scalingRows = [handWritten, handWrittenReturned, weaveDI, weaveDIOptimized, swinject, dependencies]
}

/// Everything one run measured.
struct Results {
    /// Case id -> contestant -> numbers. A missing contestant has no equivalent of that case.
    var cases: [String: [String: Measurement]] = [:]
    /// Contestant -> two-thread scaling.
    var scaling: [String: Scaling] = [:]
    /// What the benchmark's own factory closures cost per registration (see `FactoryClosureCost`);
    /// subtracted from the registration and bootstrap rows.
    var factoryClosure: Measurement?
    /// Loops and batches the contestants filed, run by `runJobs`.
    var timedJobs: [TimedJob] = []
    var batchJobs: [BatchJob] = []

    mutating func record(_ id: CaseID, _ contestant: String, _ measurement: Measurement) {
        cases[id.rawValue, default: [:]][contestant] = measurement
    }

    mutating func recordScaling(_ contestant: String, _ scaling: Scaling) {
        self.scaling[contestant] = scaling
    }

    func median(_ id: CaseID, _ contestant: String) -> Double? {
        cases[id.rawValue]?[contestant]?.medianNanoseconds
    }
}
