import WeaveDI

/// The swift-dependencies bridge (WeaveDI's `Dependencies` trait): a `@Dependency` and an
/// `@Injected` read of a bridged key whose live value is a singleton registered in
/// `Container.shared`, against a plain `@Dependency` key (the `bridged-dependency-read` row's
/// swift-dependencies column) and a plain `InjectedKey` (the `injected-read` row).
enum BridgeCases {
    /// Sets an override of a bridged key in each world, as a test would. Called at the start of
    /// each round of the cases after overrides (about a microsecond, against 20 ms rounds).
    static func overrideInBothWorlds() {
        withDependencies {
            $0.bridgedLogger = ConsoleLogger()
        } operation: {
        }
        withInjectedValues {
            $0.bridgedLogger = ConsoleLogger()
        } operation: {
        }
    }

    static func run(_ settings: Settings, results: inout Results, name: String) {
        // `WeaveDIContestant` registered `any Logging` in `Container.shared` before this runs.
        let holder = BridgedHolder()
        _ = holder.dependencyLogger
        _ = holder.injectedLogger
        if settings.wants(.bridgedDependencyRead) {
            results.record(
                .bridgedDependencyRead, name,
                timed { n in
                    for _ in 0..<n { blackHole(holder.dependencyLogger) }
                })
        }
        if settings.wants(.bridgedInjectedRead) {
            results.record(
                .bridgedInjectedRead, name,
                timed { n in
                    for _ in 0..<n { blackHole(holder.injectedLogger) }
                })
        }

        // Until a bridged key is overridden in a world, reads skip that world's lookup. The cases
        // below override one once in each (as tests do) when their first round starts, after
        // the cases above have run (cases run in `CaseID` order).
        if settings.wants(.bridgedDependencyReadAfterOverride) {
            results.record(
                .bridgedDependencyReadAfterOverride, name,
                timed { n in
                    overrideInBothWorlds()
                    for _ in 0..<n { blackHole(holder.dependencyLogger) }
                })
        }
        if settings.wants(.bridgedInjectedReadAfterOverride) {
            results.record(
                .bridgedInjectedReadAfterOverride, name,
                timed { n in
                    overrideInBothWorlds()
                    for _ in 0..<n { blackHole(holder.injectedLogger) }
                })
        }
    }
}

/// Reads the container's `any Logging` (no fallback, no test or preview value).
enum BridgedLoggerKey: BridgedDependencyKey {
    static let bridge = DependencyBridge<any Logging>()
}

extension DependencyValues {
    var bridgedLogger: any Logging {
        get { self[bridged: BridgedLoggerKey.self] }
        set { self[bridged: BridgedLoggerKey.self] = newValue }
    }
}

extension InjectedValues {
    var bridgedLogger: any Logging {
        get { self[bridged: BridgedLoggerKey.self] }
        set { self[bridged: BridgedLoggerKey.self] = newValue }
    }
}

private struct BridgedHolder: Sendable {
    @Dependency(\.bridgedLogger) var dependencyLogger
    @Injected(\.bridgedLogger) var injectedLogger
}
