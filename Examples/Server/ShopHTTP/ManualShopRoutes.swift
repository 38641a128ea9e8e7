import Database
import Hummingbird

/// The load test's route, `GET /orders/{id}`, wired by hand: no container, no scope. Per request
/// it builds the same objects the WeaveDI wiring resolves — a ``ShopUnitOfWork`` and the two
/// unit-of-work repositories over the SQLite ones — and ends the unit of work itself.
///
/// It exists to measure what WeaveDI costs a request (`ShopServer --wiring manual`), so it serves
/// only that route (and the same JSON errors).
public enum ManualShopRoutes {
    /// A router serving `GET /orders/{id}` from `database`.
    public static func router(database: AppDatabase) -> Router<ShopRequestContext> {
        let router = Router(context: ShopRequestContext.self)
        router.add(middleware: ShopErrorMiddleware())
        router.get("/orders/:id") { _, context -> OrderBody in
            let id = try ShopRoutes.orderID(context)
            let unitOfWork = ShopUnitOfWork(database: database)
            let orders = UnitOfWorkOrderRepository(
                base: SQLiteOrderRepository(database: database), unitOfWork: unitOfWork)
            let payments = UnitOfWorkPaymentRepository(
                base: SQLitePaymentRepository(database: database), unitOfWork: unitOfWork)
            do {
                guard let order = try orders.order(id: id) else {
                    throw ShopError(.notFound, "No order with id \(id).")
                }
                let body = OrderBody(order, payments: try payments.payments(orderID: id))
                await unitOfWork.dispose(reason: .completed)
                return body
            } catch {
                await unitOfWork.dispose(reason: .failed)
                throw error
            }
        }
        return router
    }
}
