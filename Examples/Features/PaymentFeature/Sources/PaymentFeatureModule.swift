import SharedModels
import WeaveDI

/// The payment feature's registrations, as a module factory.
public struct PaymentFeatureModuleFactory: ModuleFactory, Sendable {
    public var registerModule = RegisterModule()
    public var definitions: [@Sendable () -> Module] = []

    public init() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(
                PaymentService.self, dependencies: [PaymentRepository.self, OrderLookup.self, EventBus.self]
            ) {
                try PaymentServiceImpl(
                    payments: UnifiedDI.resolveOrThrow(PaymentRepository.self),
                    orders: UnifiedDI.resolveOrThrow(OrderLookup.self),
                    events: UnifiedDI.resolveOrThrow(EventBus.self))
            }
        }
    }
}

/// The payment feature. Paying needs an ``OrderLookup``, which the order feature registers.
public enum PaymentFeatureModule: FeatureModule {
    public static let name = "PaymentFeature"

    public static func dependencies() -> [String] { ["OrderFeature"] }

    public static func configure() async throws {
        await WeaveDI.Container.bootstrap { container in
            for module in PaymentFeatureModuleFactory().makeAllModules() {
                await container.register(module)
            }
        }
    }
}
