import SharedModels
import WeaveDI

/// The order feature's registrations, as a module factory.
public struct OrderFeatureModuleFactory: ModuleFactory, Sendable {
    public var registerModule = RegisterModule()
    public var definitions: [@Sendable () -> Module] = []

    public init() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(
                OrderService.self, dependencies: [OrderRepository.self, UserDirectory.self, EventBus.self]
            ) {
                try OrderServiceImpl(
                    orders: UnifiedDI.resolveOrThrow(OrderRepository.self),
                    users: UnifiedDI.resolveOrThrow(UserDirectory.self),
                    events: UnifiedDI.resolveOrThrow(EventBus.self))
            }
        }
        // Other features only look orders up; with no OrderRepository registered (a preview, a
        // unit test of another feature) they get an empty in-memory store instead of a failure.
        definitions.append(
            registerModule.makeUseCaseWithRepository(
                OrderLookup.self,
                repositoryProtocol: OrderRepository.self,
                repositoryFallback: InMemoryOrderRepository(),
                factory: { repository in RepositoryOrderLookup(orders: repository) }
            )
        )
    }
}

/// Looks orders up straight from the repository.
struct RepositoryOrderLookup: OrderLookup {
    let orders: any OrderRepository
    func order(id: Int64) throws -> Order? { try orders.order(id: id) }
}

/// Marks an order paid when its payment is captured, and announces ``OrderPaid``.
struct PaymentListener: Sendable {
    let orders: any OrderRepository
    let events: any EventBus

    func handle(_ event: PaymentCaptured) throws {
        let order = try orders.updateStatus(orderID: event.orderID, to: .paid)
        try events.publish(OrderPaid(orderID: order.id, userID: order.userID, totalCents: order.totalCents))
    }
}

/// The order feature. Placing an order needs a ``UserDirectory``, which the user feature
/// registers: hence the dependency, which makes the loader configure UserFeature first.
public enum OrderFeatureModule: FeatureModule {
    public static let name = "OrderFeature"

    public static func dependencies() -> [String] { ["UserFeature"] }

    public static func configure() async throws {
        try await WeaveDI.Container.bootstrap { container in
            for module in OrderFeatureModuleFactory().makeAllModules() {
                await container.register(module)
            }
            let events = try container.resolveOrThrow(EventBus.self)
            events.subscribe(PaymentCaptured.self) { [weak container] event in
                guard let container else { return }
                try PaymentListener(
                    orders: container.resolveOrThrow(OrderRepository.self),
                    events: container.resolveOrThrow(EventBus.self)
                ).handle(event)
            }
        }
    }
}
