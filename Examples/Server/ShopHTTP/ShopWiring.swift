import Database
import SharedModels
import WeaveDI

/// What the server adds to the app's wiring (`AppDI.bootstrap`): the request-scoped unit of work
/// and repositories, and the database and stats services.
public enum ShopWiring {
    /// Registers, in `container`:
    /// - ``ShopUnitOfWork`` and the three repositories at ``WeaveDI/Scope/request``: one unit of work per
    ///   request, shared by every repository (and every feature service and event handler) of
    ///   that request;
    /// - ``ShopDatabaseService`` and ``ShopStatsService`` as singletons, which
    ///   `ContainerServiceGroup` runs in dependency order.
    public static func register(in container: Container, log: @escaping @Sendable (String) -> Void) {
        container.register(ShopUnitOfWork.self, scope: .request) {
            ShopUnitOfWork(database: try container.resolveOrThrow(AppDatabase.self))
        }
        container.register((any UserRepository).self, scope: .request) {
            UnitOfWorkUserRepository(
                base: SQLiteUserRepository(database: try container.resolveOrThrow(AppDatabase.self)),
                unitOfWork: try container.resolveOrThrow(ShopUnitOfWork.self))
        }
        container.register((any OrderRepository).self, scope: .request) {
            UnitOfWorkOrderRepository(
                base: SQLiteOrderRepository(database: try container.resolveOrThrow(AppDatabase.self)),
                unitOfWork: try container.resolveOrThrow(ShopUnitOfWork.self))
        }
        container.register((any PaymentRepository).self, scope: .request) {
            UnitOfWorkPaymentRepository(
                base: SQLitePaymentRepository(database: try container.resolveOrThrow(AppDatabase.self)),
                unitOfWork: try container.resolveOrThrow(ShopUnitOfWork.self))
        }
        container.register(ShopDatabaseService.self, scope: .singleton) {
            ShopDatabaseService(database: try container.resolveOrThrow(AppDatabase.self), log: log)
        }
        container.register(ShopStatsService.self, scope: .singleton) {
            ShopStatsService(databaseService: try container.resolveOrThrow(ShopDatabaseService.self), log: log)
        }
    }
}
