import SharedModels
import WeaveDI

/// The user feature's registrations, as a module factory.
public struct UserFeatureModuleFactory: ModuleFactory, Sendable {
    public var registerModule = RegisterModule()
    public var definitions: [@Sendable () -> Module] = []

    public init() {
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeDependency(UserService.self, dependencies: [UserRepository.self, EventBus.self]) {
                try UserServiceImpl(
                    users: UnifiedDI.resolveOrThrow(UserRepository.self),
                    events: UnifiedDI.resolveOrThrow(EventBus.self))
            }
        }
        definitions.append {
            registerModule.makeDependency(UserDirectory.self, dependencies: [UserRepository.self, EventBus.self]) {
                try UserServiceImpl(
                    users: UnifiedDI.resolveOrThrow(UserRepository.self),
                    events: UnifiedDI.resolveOrThrow(EventBus.self))
            }
        }
    }
}

/// The user feature, loaded by `FeatureModuleLoader`: registers its services and subscribes to
/// the events it reacts to.
public enum UserFeatureModule: FeatureModule {
    public static let name = "UserFeature"

    public static func configure() async throws {
        try await WeaveDI.Container.bootstrap { container in
            for module in UserFeatureModuleFactory().makeAllModules() {
                await container.register(module)
            }
            let events = try container.resolveOrThrow(EventBus.self)
            // The handler resolves what it needs when an event arrives; the container is held
            // weakly because the bus (a singleton) lives inside it.
            events.subscribe(OrderPaid.self) { [weak container] event in
                guard let container else { return }
                try LoyaltyProgram(users: container.resolveOrThrow(UserRepository.self)).handle(event)
            }
        }
    }
}
