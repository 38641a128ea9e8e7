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

        // While no override of the key is alive, reads skip swift-dependencies' lookup. The
        // after-override cases set one in each world (as tests do) at the start of each round,
        // and let it end; the during-override cases keep one alive, of another key or of this
        // one, while they read (cases run in `CaseID` order).
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
        if settings.wants(.bridgedInjectedReadDuringOtherOverride) {
            results.record(
                .bridgedInjectedReadDuringOtherOverride, name,
                timed { n in
                    // Another key's override, held as below: this key's count stays 0.
                    let keeper = withDependencies {
                        $0.otherBridgedLogger = ConsoleLogger()
                    } operation: {
                        OtherBridgedHolder()
                    }
                    withExtendedLifetime(keeper) {
                        for _ in 0..<n { blackHole(holder.injectedLogger) }
                    }
                })
        }
        if settings.wants(.bridgedInjectedReadDuringOverride) {
            results.record(
                .bridgedInjectedReadDuringOverride, name,
                timed { n in
                    // A `@Dependency` created inside an override keeps it alive, as a model made
                    // in a test does; made per round, so no other case runs while it lives.
                    let keeper = withDependencies {
                        $0.bridgedLogger = ConsoleLogger()
                    } operation: {
                        BridgedHolder()
                    }
                    withExtendedLifetime(keeper) {
                        for _ in 0..<n { blackHole(holder.injectedLogger) }
                    }
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

/// A second bridged key (the registration named "other"), overridden while the first is read.
enum OtherBridgedLoggerKey: BridgedDependencyKey {
    static let bridge = DependencyBridge<any Logging>(name: "other", fallback: { ConsoleLogger() })
}

extension DependencyValues {
    var otherBridgedLogger: any Logging {
        get { self[bridged: OtherBridgedLoggerKey.self] }
        set { self[bridged: OtherBridgedLoggerKey.self] = newValue }
    }
}

private struct OtherBridgedHolder: Sendable {
    @Dependency(\.otherBridgedLogger) var logger
}

private struct BridgedHolder: Sendable {
    @Dependency(\.bridgedLogger) var dependencyLogger
    @Injected(\.bridgedLogger) var injectedLogger
}
