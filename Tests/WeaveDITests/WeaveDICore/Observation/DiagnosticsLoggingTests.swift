import Foundation
import Logging
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

struct LogProbeRegistered {}
struct LogProbeReplaced {}
struct LogProbeMissing {}
struct LogProbeThrows {}
struct LogProbeSlow {}
final class LogProbeCycleA: Sendable { init(_ b: LogProbeCycleB?) {} }
final class LogProbeCycleB: Sendable { init(_ a: LogProbeCycleA?) {} }
struct LogProbeError: Error {}
struct LogProbeLookAlike {}
struct LogProbeLookAlikes {}
struct LogProbeFirstMiss {}
struct LogProbeFirstMissAfterOff {}

struct LogEntry: Sendable {
    let level: Logger.Level
    let message: String
}

/// A swift-log handler that keeps every message.
struct CapturingLogHandler: LogHandler {
    let sink: Recorder<LogEntry>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        sink.append(LogEntry(level: event.level, message: event.message.description))
    }
}

/// Runs `body` with WeaveDI logging at `level` into a capturing handler; restores both after.
/// Returns the messages that mention `probe` (other suites may log at the same time).
func capturedLog(at level: DILogLevel, mentioning probe: String, _ body: () -> Void) -> [LogEntry] {
    let sink = Recorder<LogEntry>()
    let previous = UnifiedDI.logLevel
    ObservationCenter.shared.logger = Logger(label: "WeaveDI") { _ in CapturingLogHandler(sink: sink) }
    defer {
        UnifiedDI.setLogLevel(previous)
        ObservationCenter.shared.resetLogger()
    }
    // The swift-log route itself is under test here: no task-local capture takes the messages.
    LogCapture.$current.withValue(nil) {
        UnifiedDI.setLogLevel(level)
        body()
    }
    return sink.all.filter { $0.message.contains(probe) }
}

extension DiagnosticsGlobalState {
    @Suite struct Logging {
        /// Exercises every kind of event once, each with its own probe type.
        static func exerciseEverything() {
            let container = Container()
            container.register(LogProbeRegistered.self) { LogProbeRegistered() }
            container.register(LogProbeReplaced.self) { LogProbeReplaced() }
            container.register(LogProbeReplaced.self) { LogProbeReplaced() }
            _ = container.resolve(LogProbeMissing.self)
            container.register(LogProbeThrows.self) { throw LogProbeError() }
            _ = container.resolve(LogProbeThrows.self)
            container.register(LogProbeSlow.self) {
                Thread.sleep(forTimeInterval: 0.03)
                return LogProbeSlow()
            }
            _ = container.resolve(LogProbeSlow.self)
            container.register(LogProbeCycleA.self) { LogProbeCycleA(container.resolve(LogProbeCycleB.self)) }
            container.register(LogProbeCycleB.self) { LogProbeCycleB(container.resolve(LogProbeCycleA.self)) }
            _ = container.resolve(LogProbeCycleA.self)
        }

        @Test func allLogsRegistrationsAsInfo() {
            let entries = capturedLog(at: .all, mentioning: "LogProbeRegistered") { Self.exerciseEverything() }
            #expect(
                entries.contains {
                    $0.level == .info
                        && $0.message.contains(
                            "Registered WeaveDITests.LogProbeRegistered (transient) at WeaveDITests/DiagnosticsLoggingTests.swift:"
                        )
                })
        }

        @Test func warningsLogMissesReplacementsAndSlowResolutionsButNotRegistrations() {
            let registered = capturedLog(at: .warnings, mentioning: "LogProbeRegistered") { Self.exerciseEverything() }
            #expect(registered.isEmpty)
            let missing = capturedLog(at: .warnings, mentioning: "LogProbeMissing") { Self.exerciseEverything() }
            #expect(
                missing.contains {
                    $0.level == .warning && $0.message.contains("No registration for WeaveDITests.LogProbeMissing")
                })
            let replaced = capturedLog(at: .warnings, mentioning: "LogProbeReplaced") { Self.exerciseEverything() }
            #expect(
                replaced.contains {
                    $0.level == .warning
                        && $0.message.contains(
                            "replaces the registration at WeaveDITests/DiagnosticsLoggingTests.swift:")
                })
            let slow = capturedLog(at: .warnings, mentioning: "LogProbeSlow") { Self.exerciseEverything() }
            #expect(
                slow.contains {
                    $0.level == .warning && $0.message.contains("Slow resolution: WeaveDITests.LogProbeSlow took")
                })
            // Failures are logged at .warnings too.
            let thrown = capturedLog(at: .warnings, mentioning: "LogProbeThrows") { Self.exerciseEverything() }
            #expect(thrown.contains { $0.level == .error })
        }

        @Test func errorsLogFailuresOnly() {
            let thrown = capturedLog(at: .errors, mentioning: "LogProbeThrows") { Self.exerciseEverything() }
            #expect(
                thrown.contains {
                    $0.level == .error && $0.message.contains("The factory for WeaveDITests.LogProbeThrows threw")
                })
            let cycle = capturedLog(at: .errors, mentioning: "LogProbeCycle") { Self.exerciseEverything() }
            #expect(
                cycle.contains {
                    $0.level == .error
                        && $0.message.contains(
                            "Circular dependency: WeaveDITests.LogProbeCycleA -> WeaveDITests.LogProbeCycleB -> WeaveDITests.LogProbeCycleA"
                        )
                })
            // (LogProbeMissing's first miss is a warning in debug builds: see the test below.)
            for probe in ["LogProbeReplaced", "LogProbeSlow", "LogProbeRegistered"] {
                #expect(capturedLog(at: .errors, mentioning: probe) { Self.exerciseEverything() }.isEmpty, "\(probe)")
            }
        }

        @Test("at the default level, a debug build logs the first miss of each type and name once, as a warning")
        func firstMissAtTheDefaultLevel() {
            #expect(DILogLevel.errors.rawValue == runtimeFlags.logLevel.load(ordering: .relaxed)) // the default
            let container = Container()
            let entries = capturedLog(at: .errors, mentioning: "LogProbeFirstMiss") {
                _ = container.resolve(LogProbeFirstMiss.self)
                _ = container.resolve(LogProbeFirstMiss.self)
                _ = Container().resolve(LogProbeFirstMiss.self) // another container: still once
                _ = try? container.resolveOrThrow(LogProbeFirstMiss.self)
                _ = container.resolve("named", LogProbeFirstMiss.self) // another name: a first miss of its own
            }
            #if DEBUG
                #expect(entries.map(\.level) == [.warning, .warning])
                #expect(
                    entries.first?.message
                        == "No registration for WeaveDITests.LogProbeFirstMiss. Register it with `container.register(LogProbeFirstMiss.self) { ... }` (or a module) before resolving it. (A debug build logs the first miss of each type at the default level; UnifiedDI.setLogLevel(.warnings) logs every miss, .off none.)"
                )
                #expect(
                    entries.last?.message.hasPrefix("No registration for WeaveDITests.LogProbeFirstMiss[\"named\"].")
                        == true)
            #else
                #expect(entries.isEmpty)
            #endif
            // At .off a miss is not logged and does not use up the type's first miss.
            let off = capturedLog(at: .off, mentioning: "LogProbeFirstMissAfterOff") {
                _ = container.resolve(LogProbeFirstMissAfterOff.self)
            }
            #expect(off.isEmpty)
            let after = capturedLog(at: .errors, mentioning: "LogProbeFirstMissAfterOff") {
                _ = container.resolve(LogProbeFirstMissAfterOff.self)
            }
            #if DEBUG
                #expect(after.map(\.level) == [.warning])
            #else
                #expect(after.isEmpty)
            #endif
        }

        @Test("turning on .all logs WeaveDI's version first")
        func allLogsTheVersionFirst() {
            let entries = capturedLog(at: .all, mentioning: "logging at .all") {}
            #expect(entries.map(\.message) == ["WeaveDI \(DIVersion.current): logging at .all"])
            #expect(entries.first?.level == .info)
            #expect(DIVersion.current.split(separator: ".").count == 3)
        }

        @Test func offLogsNothing() {
            let entries = capturedLog(at: .off, mentioning: "LogProbe") { Self.exerciseEverything() }
            #expect(entries.isEmpty)
        }

        @Test func messagesAreBuiltOnlyWhenTheirLevelIsOn() {
            let built = Recorder<String>()
            func message(_ text: String) -> String {
                built.append(text)
                return text
            }
            _ = capturedLog(at: .errors, mentioning: "LogProbe") {
                ObservationCenter.shared.logInfo(message("info"))
                ObservationCenter.shared.logWarning(message("warning"))
            }
            #expect(built.all.isEmpty)
            _ = capturedLog(at: .off, mentioning: "LogProbe") {
                ObservationCenter.shared.logError(message("error"))
            }
            #expect(built.all.isEmpty)
            _ = capturedLog(at: .all, mentioning: "LogProbe") {
                ObservationCenter.shared.logInfo(message("info"))
            }
            #expect(built.all == ["info"])
        }

        @Test func aQuietMissSpellsOutNoLookAlikes() {
            // Look-alike names are computed only for someone: the caller of a throwing resolve,
            // an error hook, or the log at .warnings.
            let container = Container()
            container.register(LogProbeLookAlikes.self) { LogProbeLookAlikes() }
            func similar(_ error: DIError) -> [String] {
                if case .dependencyNotFound(_, _, let similar) = error { return similar.names }
                return []
            }
            _ = capturedLog(at: .off, mentioning: "LogProbe") {
                #expect(similar(container.report(.dependencyNotFound(LogProbeLookAlike.self))).isEmpty)
                #expect(
                    similar(container.report(.dependencyNotFound(LogProbeLookAlike.self), thrown: true))
                        == ["WeaveDITests.LogProbeLookAlikes"])
                let token = UnifiedDI.onResolutionError { _, _ in }
                defer { token.cancel() }
                #expect(
                    similar(container.report(.dependencyNotFound(LogProbeLookAlike.self)))
                        == ["WeaveDITests.LogProbeLookAlikes"])
            }
            _ = capturedLog(at: .warnings, mentioning: "LogProbe") {
                #expect(
                    similar(container.report(.dependencyNotFound(LogProbeLookAlike.self)))
                        == ["WeaveDITests.LogProbeLookAlikes"])
            }
        }

        @Test func aHookedMissComputesItsLookAlikesOnlyWhenTheMessageIsFormatted() throws {
            // A hook that only counts misses must not pay for a scan of every registration.
            let container = Container()
            container.register(LogProbeLookAlikes.self) { LogProbeLookAlikes() }
            let heard = Recorder<DIError>()
            _ = capturedLog(at: .off, mentioning: "LogProbe") {
                let token = UnifiedDI.onResolutionError { _, error in
                    if case .dependencyNotFound(let type, _, _) = error, type == LogProbeLookAlike.self {
                        heard.append(error)
                    }
                }
                defer { token.cancel() }
                #expect(container.resolve(LogProbeLookAlike.self) == nil)
                #expect((try? container.resolveOrThrow(LogProbeLookAlike.self)) == nil)
            }
            #expect(heard.all.count == 2)
            for error in heard.all {
                guard case .dependencyNotFound(_, _, let similar) = error else {
                    Issue.record("\(error)")
                    continue
                }
                // Carried as a look-up, not as names: nothing was computed for the hook.
                #expect(similar.isDeferred)
                #expect("\(error)".contains("Registered types with similar names: WeaveDITests.LogProbeLookAlikes."))
                #expect(similar.names == ["WeaveDITests.LogProbeLookAlikes"])
            }
        }

        @Test func factoriesAreTimedOnlyWhileSomeoneListens() {
            _ = capturedLog(at: .errors, mentioning: "LogProbe") {
                #expect(runtimeFlags.timing.load(ordering: .relaxed) == false)
            }
            _ = capturedLog(at: .warnings, mentioning: "LogProbe") {
                #expect(runtimeFlags.timing.load(ordering: .relaxed) == true)
            }
        }

        @Test func setLogLevelIsReadBack() {
            _ = capturedLog(at: .warnings, mentioning: "LogProbe") {
                #expect(UnifiedDI.logLevel == .warnings)
            }
        }
    }
}
