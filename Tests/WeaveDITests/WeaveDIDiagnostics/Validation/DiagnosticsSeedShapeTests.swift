import Foundation
import Testing
import WeaveDI

// The Advanced Patterns guide declares its own HealthCheckable and HealthStatus in the app. Declarations in the
// app's module hide WeaveDI's there, so the seed compiles unchanged next to `import WeaveDI`.
// (fileprivate here only so the rest of the test target keeps WeaveDI's.)
private protocol HealthCheckable {
    func healthCheck() async -> HealthStatus
}

private enum HealthStatus {
    case healthy
    case degraded(reason: String)
    case unhealthy(error: Error)
}

private protocol SeedDatabaseService {}

private final class SeedDatabase: SeedDatabaseService, HealthCheckable {
    func healthCheck() async -> HealthStatus { .degraded(reason: "replica lag") }
}

/// The Advanced Patterns guide's `HealthMonitorService`, resolving through the shared container.
private final class SeedHealthMonitorService {
    private var databaseService: SeedDatabaseService? { UnifiedDI.resolve(SeedDatabaseService.self) }

    func performHealthCheck() async -> [String: HealthStatus] {
        var results: [String: HealthStatus] = [:]
        let database = databaseService as? HealthCheckable
        if let database { results["DatabaseService"] = await database.healthCheck() }
        return results
    }
}

/// The Advanced Patterns guide's `ProductionMonitoring.setupMonitoring()`, compiled as written.
private enum SeedProductionMonitoring {
    static func setupMonitoring() {
        UnifiedDI.onSlowResolution { serviceName, duration in
            if duration > 0.01 {
                print("⚠️ Slow DI resolution: \(serviceName) took \(duration * 1000)ms")
            }
        }
        UnifiedDI.onMemoryPressure {
            print("💾 DI Container under memory pressure")
        }
        UnifiedDI.onResolutionError { serviceName, error in
            print("❌ DI Resolution failed: \(serviceName) - \(error)")
        }
    }
}

/// The Module Factory guide's `verifyCriticalDependencies`, with `verifyOrThrow` doing the loop.
private func verifyCriticalDependencies() throws {
    let criticalServices: [Any.Type] = [SeedDatabaseService.self]
    try WeaveDI.Container.shared.verifyOrThrow(criticalServices)
}

@Suite struct DiagnosticsSeedShapeTests {
    @Test func appDeclaredHealthTypesShadowWeaveDIs() async {
        let container = Container()
        container.register(SeedDatabaseService.self) { SeedDatabase() }
        let results = await Container.withShared(container) { await SeedHealthMonitorService().performHealthCheck() }
        guard case .degraded(let reason)? = results["DatabaseService"] else {
            Issue.record("expected the app's own degraded status, got \(results)")
            return
        }
        #expect(reason == "replica lag")
        // WeaveDI's checkHealth does not know the app's protocol: the service is left out.
        #expect(await container.checkHealth().isEmpty)
        _ = SeedProductionMonitoring.self
    }

    @Test func criticalServicesCheck() throws {
        let container = Container()
        Container.withShared(container) {
            _ = #expect(throws: VerificationError.self) { try verifyCriticalDependencies() }
        }
        container.register(SeedDatabaseService.self) { SeedDatabase() }
        try Container.withShared(container) { try verifyCriticalDependencies() }
    }
}
