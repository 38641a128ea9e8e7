import DI
import Database
import OrderFeature
import PaymentFeature
import SharedModels
import Testing
import UserFeature
import WeaveDI
import WeaveDITesting

/// The features are configured in dependency order by the loader, whatever order they are listed in.
@Suite(.container)
struct FeatureModuleTests {
    @Test func theLoaderOrdersFeaturesByTheirDependencies() async throws {
        let loader = try FeatureModuleLoader(AppDI.features)
        #expect(try await loader.loadOrder() == ["UserFeature", "OrderFeature", "PaymentFeature"])
    }

    @Test func loadingOneFeatureLoadsWhatItNeedsFirst() async throws {
        // The core layers only, then just the payment feature on demand.
        try await coreOnly()
        let loader = try FeatureModuleLoader(AppDI.features)

        try await loader.load(PaymentFeatureModule.name)

        #expect(await loader.loadedModules == ["UserFeature", "OrderFeature", "PaymentFeature"])
        #expect(WeaveDI.Container.shared.resolve(PaymentService.self) != nil)
    }

    @Test func aFeatureWhoseDependencyIsMissingFailsToResolveNamingIt() async throws {
        try await coreOnly()
        // Configure the payment feature alone, bypassing the loader: PaymentService needs an
        // OrderLookup, which only the order feature registers.
        try await PaymentFeatureModule.configure()

        #expect {
            _ = try WeaveDI.Container.shared.resolveOrThrow(PaymentService.self)
        } throws: { error in
            "\(error)".contains("OrderLookup")
        }
    }

    private func coreOnly() async throws {
        let configuration = AppConfiguration(environment: .testing)
        AppDI.registerDatabase(configuration, into: WeaveDI.Container.shared)
        let database = try await WeaveDI.Container.shared.resolveAsync(AppDatabase.self)
        var manager = AppDI.makeManager(for: configuration, database: database)
        try await manager.registerAll(to: WeaveDI.Container.shared)
    }
}
