import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDIDiagnostics

final class HealthyService: WeaveDI.HealthCheckable, Sendable {
    func healthCheck() async -> WeaveDI.HealthStatus { .healthy }
}

final class DegradedService: WeaveDI.HealthCheckable, Sendable {
    func healthCheck() async -> WeaveDI.HealthStatus { .degraded(reason: "replica lag") }
}

struct HealthProbeError: Error, Equatable {}

final class UnhealthyService: WeaveDI.HealthCheckable, Sendable {
    func healthCheck() async -> WeaveDI.HealthStatus { .unhealthy(error: HealthProbeError()) }
}

/// Sleeps far past any test timeout, but stops when cancelled.
final class SlowService: WeaveDI.HealthCheckable, Sendable {
    func healthCheck() async -> WeaveDI.HealthStatus {
        try? await Task.sleep(nanoseconds: 60_000_000_000)
        return .healthy
    }
}

/// Ignores cancellation: finishes only after 20 s, and says when it did.
final class StubbornService: WeaveDI.HealthCheckable, Sendable {
    let finished: Recorder<Int>
    init(finished: Recorder<Int>) { self.finished = finished }
    func healthCheck() async -> WeaveDI.HealthStatus {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { continuation.resume() }
        }
        finished.append(1)
        return .healthy
    }
}

struct NotCheckable {}
struct BrokenCheckable {}
protocol HealthProbeProtocol: Sendable {}
final class ProtocolBackedService: HealthProbeProtocol, WeaveDI.HealthCheckable {
    func healthCheck() async -> WeaveDI.HealthStatus { .healthy }
}

@Suite(.capturesLog) struct DiagnosticsHealthTests {
    @Test func reportsEveryHealthCheckableServiceByName() async {
        let container = Container()
        container.register(HealthyService.self, scope: .singleton) { HealthyService() }
        container.register(DegradedService.self) { DegradedService() }
        container.register("primary", UnhealthyService.self) { UnhealthyService() }
        container.register(NotCheckable.self) { NotCheckable() }
        // Registered as a protocol: the resolved instance decides whether it is checkable.
        container.register(HealthProbeProtocol.self) { ProtocolBackedService() }
        let results = await container.checkHealth(timeout: 5)
        #expect(
            Set(results.keys) == [
                "WeaveDITests.HealthyService", "WeaveDITests.DegradedService",
                "WeaveDITests.UnhealthyService[\"primary\"]", "WeaveDITests.HealthProbeProtocol",
            ])
        #expect(results["WeaveDITests.HealthyService"]?.isHealthy == true)
        #expect(results["WeaveDITests.HealthProbeProtocol"]?.isHealthy == true)
        guard case .degraded(let reason)? = results["WeaveDITests.DegradedService"] else {
            Issue.record("expected degraded, got \(String(describing: results["WeaveDITests.DegradedService"]))")
            return
        }
        #expect(reason == "replica lag")
        guard case .unhealthy(let error)? = results["WeaveDITests.UnhealthyService[\"primary\"]"] else {
            Issue.record("expected unhealthy")
            return
        }
        #expect(error as? HealthProbeError == HealthProbeError())
    }

    @Test func aCheckPastItsTimeoutIsUnhealthy() async {
        let container = Container()
        container.register(SlowService.self) { SlowService() }
        container.register(HealthyService.self) { HealthyService() }
        let results = await container.checkHealth(timeout: 0.2)
        #expect(results["WeaveDITests.HealthyService"]?.isHealthy == true)
        guard case .unhealthy(let error)? = results["WeaveDITests.SlowService"] else {
            Issue.record("expected unhealthy, got \(String(describing: results["WeaveDITests.SlowService"]))")
            return
        }
        let timeout = error as? HealthStatus.TimeoutError
        #expect(timeout?.service == "WeaveDITests.SlowService")
        #expect(timeout?.timeout == 0.2)
    }

    @Test func aCheckIgnoringCancellationDoesNotHoldTheCaller() async {
        let finished = Recorder<Int>()
        let container = Container()
        container.register(StubbornService.self) { StubbornService(finished: finished) }
        let results = await container.checkHealth(timeout: 0.2)
        #expect(finished.all.isEmpty) // still running: nobody waited for it
        #expect(
            (results["WeaveDITests.StubbornService"].map { status -> Bool in
                if case .unhealthy(let error) = status { return error is HealthStatus.TimeoutError }
                return false
            }) == true)
    }

    @Test func anUnresolvableServiceIsUnhealthyWithTheResolutionError() async {
        let container = Container()
        container.register(BrokenCheckable.self) { throw HealthProbeError() }
        let results = await container.checkHealth()
        guard case .unhealthy(let error)? = results["WeaveDITests.BrokenCheckable"],
            case .factoryFailed(_, _, let underlying)? = error as? DIError
        else {
            Issue.record("expected unhealthy(factoryFailed), got \(results)")
            return
        }
        #expect(underlying as? HealthProbeError == HealthProbeError())
    }

    @Test func checksParentServicesAndUsesTheRealSingletons() async {
        let parent = Container()
        parent.register(HealthyService.self, scope: .singleton) { HealthyService() }
        let child = Container(parent: parent)
        child.register(DegradedService.self) { DegradedService() }
        let results = await child.checkHealth()
        #expect(Set(results.keys) == ["WeaveDITests.HealthyService", "WeaveDITests.DegradedService"])
        #expect(parent.statistics(for: HealthyService.self)?.resolutions == 1)
    }

    @Test func statusDescriptions() {
        #expect(WeaveDI.HealthStatus.healthy.description == "healthy")
        #expect(WeaveDI.HealthStatus.degraded(reason: "slow").description == "degraded: slow")
        #expect(
            WeaveDI.HealthStatus.unhealthy(error: HealthStatus.TimeoutError(service: "S", timeout: 1)).description
                == "unhealthy: The health check of S did not finish within 1.0 s.")
    }
}

extension DiagnosticsHealthTests {
    /// A service with an async factory is built (awaited) and checked like any other.
    @Test func checksServicesRegisteredWithAsyncFactories() async {
        let container = Container()
        container.registerAsync(HealthyService.self, scope: .singleton) {
            await Task.yield()
            return HealthyService()
        }
        container.registerAsync("replica", DegradedService.self) { DegradedService() }
        let report = await container.checkHealth(timeout: 5)
        #expect(report["WeaveDITests.HealthyService"]?.isHealthy == true)
        guard case .degraded(let reason)? = report["WeaveDITests.DegradedService[\"replica\"]"] else {
            Issue.record("expected degraded, got \(report)")
            return
        }
        #expect(reason == "replica lag")
    }
}
