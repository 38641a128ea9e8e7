import DI
import Database
import Foundation
import SharedModels
import Testing
import WeaveDI
import WeaveDITesting

/// Each environment gets its own module factories from the same manager code.
@Suite(.container)
struct EnvironmentTests {
    private func moduleTypes(_ environment: AppEnvironment) throws -> [String] {
        AppDI.makeManager(for: AppConfiguration(environment: environment), database: try AppDatabase.temporary())
            .makeAllModules().map { String(describing: $0.type) }
    }

    @Test func developmentAndTestingJournalEventsProductionDoesNot() throws {
        for environment in [AppEnvironment.development, .testing] {
            #expect(try moduleTypes(environment).contains("EventJournal"))
        }
        #expect(try !moduleTypes(.production).contains("EventJournal"))
        for environment in AppEnvironment.allCases {
            #expect(try moduleTypes(environment).filter { $0 == "EventBus" }.count == 1)
            #expect(try moduleTypes(environment).contains("UserRepository"))
        }
    }

    @Test func productionWiringRunsTheFlowWithAPlainBus() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "weavedi-prod-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = AppConfiguration(
            environment: .production, databasePath: directory.appendingPathComponent("shop.sqlite").path)

        let summary = try await AppDI.bootstrap(configuration)

        #expect(summary.databasePath.hasPrefix(directory.path))
        #expect(WeaveDI.Container.shared.resolve(EventBus.self) is InProcessEventBus)
        #expect(!WeaveDI.Container.shared.isRegistered(EventJournal.self))
        #expect(configuration.receiptsDirectory?.path == directory.appendingPathComponent("receipts").path)
    }

    @Test func theManagerRefusesToRegisterTheSameModulesTwice() async throws {
        let app = try await TestApp.bootstrap()
        var manager = AppDI.makeManager(
            for: AppConfiguration(environment: .testing), database: try await app.database())
        manager.add(InfrastructureModuleFactory.testingDuplicate(), layer: .infrastructure, name: "Duplicate")
        await #expect(throws: ModuleFactoryError.self) {
            try await manager.registerAll(to: WeaveDI.Container.shared)
        }
    }
}

extension InfrastructureModuleFactory {
    /// A factory that registers the event bus a second time.
    static func testingDuplicate() -> InfrastructureModuleFactory {
        var factory = InfrastructureModuleFactory()
        let registerModule = factory.registerModule
        factory.definitions.append { registerModule.makeModule(EventBus.self) { InProcessEventBus() } }
        return factory
    }
}
