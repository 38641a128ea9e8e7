import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore
@testable import WeaveDIDiagnostics

struct HookSlowProbe {}
struct HookFastProbe {}
struct HookTrackedProbe {}
struct HookMissingProbe {}
struct HookThrowingProbe {}
struct HookNestedOuter {}
struct HookNestedInner {}
struct HookScopedProbe {}
final class HookCycleA: Sendable { init(_ b: HookCycleB) {} }
final class HookCycleB: Sendable { init(_ a: HookCycleA) {} }
struct HookProbeError: Error, Equatable { let code: Int }

struct SlowEvent: Sendable {
    let name: String
    let seconds: TimeInterval
}

struct ErrorEvent: Sendable {
    let name: String
    let error: DIError
}

private func slowFactoryContainer() -> Container {
    let container = Container()
    container.register(HookSlowProbe.self) {
        Thread.sleep(forTimeInterval: 0.03) // at least 30 ms: over the 10 ms default threshold
        return HookSlowProbe()
    }
    container.register(HookFastProbe.self) { HookFastProbe() }
    return container
}

extension DiagnosticsGlobalState {
    @Suite struct SlowResolutionHook {
        @Test func defaultThresholdIsAtMostTenMilliseconds() {
            #expect(UnifiedDI.slowResolutionThreshold <= 0.010)
            #expect(UnifiedDI.slowResolutionThreshold > 0)
        }

        @Test func firesForAFactorySlowerThanTheThreshold() {
            let events = Recorder<SlowEvent>()
            let token = UnifiedDI.onSlowResolution { events.append(SlowEvent(name: $0, seconds: $1)) }
            defer { token.cancel() }
            _ = slowFactoryContainer().resolve(HookSlowProbe.self)
            let mine = events.all.filter { $0.name == "WeaveDITests.HookSlowProbe" }
            #expect(mine.count == 1)
            #expect(mine.first.map { $0.seconds >= 0.03 } == true)
        }

        @Test func perHookThresholdIsHonoured() {
            let never = Recorder<SlowEvent>()
            let always = Recorder<SlowEvent>()
            let high = UnifiedDI.onSlowResolution(threshold: 3600) { never.append(SlowEvent(name: $0, seconds: $1)) }
            let zero = UnifiedDI.onSlowResolution(threshold: 0) { always.append(SlowEvent(name: $0, seconds: $1)) }
            defer {
                high.cancel()
                zero.cancel()
            }
            let container = slowFactoryContainer()
            _ = container.resolve(HookSlowProbe.self)
            _ = container.resolve(HookFastProbe.self)
            #expect(never.all.filter { $0.name.hasPrefix("WeaveDITests.Hook") }.isEmpty)
            #expect(always.all.contains { $0.name == "WeaveDITests.HookFastProbe" })
            #expect(always.all.contains { $0.name == "WeaveDITests.HookSlowProbe" })
        }

        @Test func processWideThresholdIsConfigurable() {
            let events = Recorder<SlowEvent>()
            let token = UnifiedDI.onSlowResolution { events.append(SlowEvent(name: $0, seconds: $1)) }
            let previous = UnifiedDI.slowResolutionThreshold
            UnifiedDI.setSlowResolutionThreshold(3600)
            defer {
                UnifiedDI.setSlowResolutionThreshold(previous)
                token.cancel()
            }
            _ = slowFactoryContainer().resolve(HookSlowProbe.self)
            #expect(events.all.filter { $0.name == "WeaveDITests.HookSlowProbe" }.isEmpty)
            #expect(UnifiedDI.slowResolutionThreshold == 3600)
        }

        @Test func resolveWithTrackingReportsTheResolutionOnce() {
            let events = Recorder<SlowEvent>()
            let token = UnifiedDI.onSlowResolution(threshold: 0) { events.append(SlowEvent(name: $0, seconds: $1)) }
            defer { token.cancel() }
            let container = Container()
            container.register(HookTrackedProbe.self) { HookTrackedProbe() }
            #expect(container.resolveWithTracking(HookTrackedProbe.self) != nil)
            #expect(events.all.filter { $0.name == "WeaveDITests.HookTrackedProbe" }.count == 1)
            #expect(container.statistics(for: HookTrackedProbe.self)?.timedResolutions == 1)
        }

        @Test func validationSandboxDoesNotReachTheSlowHook() {
            let events = Recorder<SlowEvent>()
            let token = UnifiedDI.onSlowResolution(threshold: 0) { events.append(SlowEvent(name: $0, seconds: $1)) }
            defer { token.cancel() }
            let container = Container()
            container.register(HookTrackedProbe.self) { HookTrackedProbe() }
            #expect(container.validate().isValid)
            #expect(container.verify([HookTrackedProbe.self]).isEmpty)
            #expect(events.all.filter { $0.name == "WeaveDITests.HookTrackedProbe" }.isEmpty)
        }

        @Test func cancelledHookHearsNothing() {
            let events = Recorder<SlowEvent>()
            let token = UnifiedDI.onSlowResolution(threshold: 0) { events.append(SlowEvent(name: $0, seconds: $1)) }
            token.cancel()
            _ = slowFactoryContainer().resolve(HookFastProbe.self)
            #expect(events.all.filter { $0.name == "WeaveDITests.HookFastProbe" }.isEmpty)
        }
    }

    @Suite struct MemoryPressureHook {
        @Test func reportMemoryPressureReachesTheHooks() {
            let calls = Recorder<Int>()
            let token = UnifiedDI.onMemoryPressure { calls.append(1) }
            UnifiedDI.reportMemoryPressure()
            #expect(calls.all.count == 1)
            token.cancel()
            UnifiedDI.reportMemoryPressure()
            #expect(calls.all.count == 1)
        }

        @Test func systemSourceStartsWithTheFirstHookAndStopsWithTheLast() throws {
            #expect(UnifiedDI.memoryPressureSource == nil)
            let first = UnifiedDI.onMemoryPressure {}
            let second = UnifiedDI.onMemoryPressure {}
            #if canImport(Darwin)
                #expect(UnifiedDI.memoryPressureSource == "DispatchSource memory-pressure source")
            #elseif os(Linux)
                if FileManager.default.fileExists(atPath: "/proc/pressure/memory"),
                    case .watching = MemoryPressureHooks.shared.monitor.status
                {
                    #expect(UnifiedDI.memoryPressureSource?.hasPrefix("PSI trigger on ") == true)
                    #expect(UnifiedDI.memoryPressureSource?.contains("pressure") == true)
                } else {
                    // No PSI here: the monitor says why instead of pretending.
                    guard case .unavailable(let reason) = MemoryPressureHooks.shared.monitor.status else {
                        Issue.record("monitor neither watching nor unavailable")
                        return
                    }
                    #expect(!reason.isEmpty)
                }
            #endif
            first.cancel()
            #expect(MemoryPressureHooks.shared.monitor.status != .stopped)
            second.cancel()
            #expect(MemoryPressureHooks.shared.monitor.status == .stopped)
            #expect(UnifiedDI.memoryPressureSource == nil)
        }

        #if os(Linux)
            @Test func psiWatchLoopCallsBackOnEventsAndStopsWhenWoken() async throws {
                // A pipe stands in for the PSI file: POLLPRI cannot be raised on demand, so this
                // checks the loop's plumbing (wake-up, stop, descriptor handling) with POLLIN.
                var psi: [Int32] = [-1, -1]
                var wake: [Int32] = [-1, -1]
                try #require(pipe(&psi) == 0)
                try #require(pipe(&wake) == 0)
                let calls = Recorder<Int>()
                let done = Recorder<Int>()
                let psiRead = psi[0]
                let wakeRead = wake[0]
                let thread = Thread {
                    PSIWatchLoop.run(psi: psiRead, wake: wakeRead, onPressure: { calls.append(1) })
                    done.append(1)
                }
                thread.start()
                var byte: UInt8 = 1
                _ = write(wake[1], &byte, 1)
                for _ in 0..<500 where done.all.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
                #expect(done.all.count == 1)
                #expect(calls.all.isEmpty) // POLLIN on the stand-in is not a pressure event
                close(psi[1])
                close(wake[1])
            }
        #endif
    }
}

extension DiagnosticsGlobalState {
    @Suite struct ResolutionErrorHook {
        /// Installs a hook for the duration of `body` and returns the events about `prefix` types.
        func errors(about prefix: String, _ body: () -> Void) -> [ErrorEvent] {
            let events = Recorder<ErrorEvent>()
            let token = UnifiedDI.onResolutionError { events.append(ErrorEvent(name: $0, error: $1)) }
            defer { token.cancel() }
            body()
            return events.all.filter { $0.name.hasPrefix(prefix) }
        }

        @Test func hearsAMissingRegistration() {
            let events = errors(about: "WeaveDITests.HookMissingProbe") {
                _ = Container().resolve(HookMissingProbe.self)
            }
            #expect(events.count == 1)
            guard case .dependencyNotFound(let type, let name, _)? = events.first?.error else {
                Issue.record("expected dependencyNotFound, got \(events)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(HookMissingProbe.self))
            #expect(name == nil)
        }

        @Test func hearsACycleWithItsPath() {
            let container = Container()
            container.register(HookCycleA.self) { HookCycleA(try container.resolveOrThrow(HookCycleB.self)) }
            container.register(HookCycleB.self) { HookCycleB(try container.resolveOrThrow(HookCycleA.self)) }
            let events = errors(about: "WeaveDITests.HookCycle") { _ = container.resolve(HookCycleA.self) }
            // Reported where it was detected; the factories that rethrew it do not report it again.
            #expect(events.count == 1)
            guard case .circularDependency(let path)? = events.first?.error else {
                Issue.record("expected circularDependency, got \(events)")
                return
            }
            #expect(path == ["WeaveDITests.HookCycleA", "WeaveDITests.HookCycleB", "WeaveDITests.HookCycleA"])
        }

        @Test func hearsAFactoryThatThrewWithItsError() {
            let container = Container()
            container.register(HookThrowingProbe.self) { throw HookProbeError(code: 7) }
            let events = errors(about: "WeaveDITests.HookThrowingProbe") {
                _ = container.resolve(HookThrowingProbe.self)
            }
            #expect(events.count == 1)
            guard case .factoryFailed(let type, _, let underlying)? = events.first?.error else {
                Issue.record("expected factoryFailed, got \(events)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(HookThrowingProbe.self))
            #expect(underlying as? HookProbeError == HookProbeError(code: 7))
        }

        @Test func hearsAnEndedScope() {
            let container = Container()
            container.register(HookScopedProbe.self, scope: .custom("hook-probe")) { HookScopedProbe() }
            let instance = container.beginScope(.custom("hook-probe"))
            instance.end()
            let events = errors(about: "WeaveDITests.HookScopedProbe") {
                container.withScope(instance) { _ = container.resolve(HookScopedProbe.self) }
            }
            #expect(events.count == 1)
            guard case .scopeEnded(let scope, let type)? = events.first?.error else {
                Issue.record("expected scopeEnded, got \(events)")
                return
            }
            #expect(scope == "hook-probe")
            #expect(ObjectIdentifier(type) == ObjectIdentifier(HookScopedProbe.self))
        }

        @Test func hearsANestedFailureOnceThoughFactoriesRethrowIt() {
            let container = Container()
            container.register(HookNestedOuter.self) {
                _ = try container.resolveOrThrow(HookNestedInner.self)
                return HookNestedOuter()
            }
            var thrown: DIError?
            let events = errors(about: "WeaveDITests.HookNested") {
                do { _ = try container.resolveOrThrow(HookNestedOuter.self) } catch { thrown = error as? DIError }
            }
            #expect(events.count == 1)
            #expect(events.first?.name == "WeaveDITests.HookNestedInner")
            // The caller still gets the error, naming the missing inner type.
            guard case .dependencyNotFound(let type, _, _)? = thrown else {
                Issue.record("expected dependencyNotFound, got \(String(describing: thrown))")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(HookNestedInner.self))
            // The miss is counted once too.
            #expect(container.statistics(for: HookNestedInner.self)?.misses == 1)
        }

        @Test func hearsEachSeparateFailure() {
            let container = Container()
            let events = errors(about: "WeaveDITests.HookMissingProbe") {
                _ = container.resolve(HookMissingProbe.self)
                _ = container.resolve(HookMissingProbe.self)
            }
            #expect(events.count == 2)
        }
    }
}
