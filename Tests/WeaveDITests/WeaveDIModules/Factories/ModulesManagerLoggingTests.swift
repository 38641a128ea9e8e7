import Foundation
import Logging
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

/// Runs `body` with WeaveDI logging at `level` into a capturing handler; restores both after.
/// Returns the messages that mention `probe` (other suites may log at the same time).
private func capturedLogAsync(
    at level: DILogLevel, mentioning probe: String, _ body: () async throws -> Void
) async rethrows -> [LogEntry] {
    let sink = Recorder<LogEntry>()
    let previous = UnifiedDI.logLevel
    ObservationCenter.shared.logger = Logger(label: "WeaveDI") { _ in CapturingLogHandler(sink: sink) }
    UnifiedDI.setLogLevel(level)
    defer {
        UnifiedDI.setLogLevel(previous)
        ObservationCenter.shared.resetLogger()
    }
    // The swift-log route itself is under test here: no task-local capture takes the messages.
    try await LogCapture.$current.withValue(nil) { try await body() }
    return sink.all.filter { $0.message.contains(probe) }
}

private struct ModuleLogProbe {}

private struct ModuleLogProbeFactory: ModuleFactory, Sendable {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = [{ Module(ModuleLogProbe.self) { ModuleLogProbe() } }]
}

extension DiagnosticsGlobalState {
    @Suite struct ModuleFactoryManagerLogging {
        @Test("setupAllFactories() on a manager made without a configuration warns that it changes nothing")
        func unconfiguredSetupWarns() async {
            let entries = await capturedLogAsync(at: .warnings, mentioning: "setupAllFactories()") {
                var manager = ModuleFactoryManager()
                await manager.setupAllFactories()
            }
            #expect(entries.count == 1)
            #expect(entries.first?.level == .warning)
            #expect(entries.first?.message.contains("init(environment:configuration:logger:)") == true)
        }

        @Test("registerAll's steps go to WeaveDI's log at the .all level, not below")
        func stepsAreLoggedAtAll() async throws {
            let all = try await capturedLogAsync(at: .all, mentioning: "ModuleLogProbeSteps") {
                var manager = ModuleFactoryManager()
                manager.add(ModuleLogProbeFactory(), layer: .service, name: "ModuleLogProbeSteps")
                try await manager.registerAll(to: Container())
            }
            #expect(
                all.contains {
                    $0.level == .info && $0.message.hasPrefix("🎉 Module registration completed successfully")
                })
            #expect(
                all.contains { $0.message.contains("📦 Registering ModuleLogProbeSteps (service): batch 1/1") } == false,
                "batches go to the app's logger only")

            let warnings = try await capturedLogAsync(at: .warnings, mentioning: "ModuleLogProbeQuiet") {
                var manager = ModuleFactoryManager()
                manager.add(ModuleLogProbeFactory(), layer: .service, name: "ModuleLogProbeQuiet")
                try await manager.registerAll(to: Container())
            }
            #expect(warnings.isEmpty)
        }
    }
}
