import DI
import Database
import OrderFeature
import PaymentFeature
import SharedModels
import Testing
import UserFeature
import WeaveDI
import WeaveDITesting

/// The whole app's wiring, checked the way a CI job would: every registration resolves, the
/// graph has the edges the features declare, and the database reports healthy.
@Suite(.container)
struct WiringValidationTests {
    @Test func everyRegistrationOfEveryEnvironmentResolves() async throws {
        _ = try await TestApp.bootstrap()
        // validateAsync, not validate: it also builds the async registrations (the database) in
        // its sandbox.
        let report = await WeaveDI.Container.shared.validateAsync()
        #expect(report.isValid, "\(report)")
        try WeaveDI.Container.shared.verifyOrThrow([UserService.self, OrderService.self, PaymentService.self])
    }

    @Test func theGraphShowsTheFeaturesDependingOnSharedProtocols() async throws {
        _ = try await TestApp.bootstrap()
        let graph = await WeaveDI.Container.shared.validateAsync().graph
        let mermaid = graph.mermaid()
        for type in ["PaymentService", "OrderLookup", "OrderRepository", "UserDirectory", "EventBus", "AppDatabase"] {
            #expect(mermaid.contains(type), "the graph should mention \(type)")
        }
        #expect(graph.dot().hasPrefix("digraph"))
    }

    @Test func aMissingRepositoryIsReportedWithTheServiceThatNeedsIt() async throws {
        _ = try await TestApp.bootstrap()
        WeaveDI.Container.shared.unregister(PaymentRepository.self)

        let report = await WeaveDI.Container.shared.validateAsync()

        #expect(!report.isValid)
        #expect(report.missingDependencies.contains { "\($0)".contains("PaymentRepository") })
    }

    @Test func theDatabaseIsHealthy() async throws {
        _ = try await TestApp.bootstrap()
        // checkHealth builds the async-only database with await, then runs its health check.
        let health = await WeaveDI.Container.shared.checkHealth(timeout: 2)
        #expect(health["Database.AppDatabase"]?.isHealthy == true)
        #expect(health.values.allSatisfy { $0.isHealthy }, "\(health)")
    }
}
