import Hummingbird
import OrderFeature
import PaymentFeature
import SharedModels
import UserFeature
import WeaveDI
import WeaveDIHummingbird

/// The shop's HTTP API, each handler resolving its services from the request's scope.
///
/// | route | does | answers |
/// | --- | --- | --- |
/// | `POST /users` `{"name","email"}` | signs up (or finds) a user | 201 (new) / 200, the user |
/// | `POST /orders` `{"userID","items":[{"sku","quantity"}]}` | places an order | 201, the order |
/// | `POST /orders/{id}/payments` `{"cardNumber"}` | pays it | 201 captured / 402 declined, the payment |
/// | `GET /orders/{id}` | reads the order and its payments back | 200, the order |
///
/// Errors are JSON (``ShopError``): 400 malformed JSON, 404 unknown id or route, 405 wrong
/// method, 409 conflict, 413 body over 64 KiB, 422 invalid input.
public enum ShopRoutes {
    /// The paths and the methods each serves; any other method is answered 405.
    static let paths: [(path: RouterPath, methods: [HTTPRequest.Method])] = [
        ("/users", [.post]), ("/orders", [.post]), ("/orders/:id", [.get]), ("/orders/:id/payments", [.post]),
    ]

    /// A router serving the shop from `container`: errors as JSON, then one request scope per
    /// request, then the routes.
    ///
    /// The features resolve through `Container.shared`. The server passes the process-wide
    /// container, which `Container.shared` already is in every task, so `bindsSharedContainer` is
    /// `false` there; tests pass a container of their own and `true`.
    public static func router(container: Container, bindsSharedContainer: Bool) -> Router<ShopRequestContext> {
        let router = Router(context: ShopRequestContext.self)
        router.add(middleware: ShopErrorMiddleware())
        router.add(middleware: RequestScopeMiddleware(container: container, bindsSharedContainer: bindsSharedContainer))

        router.post("/users") { request, context -> EditedResponse<UserBody> in
            let body = try await request.decode(as: SignUpRequest.self, context: context)
            let users = try context.resolve((any UserService).self)
            let (user, isNew) = try users.signUp(name: body.name, email: body.email)
            return EditedResponse(status: isNew ? .created : .ok, response: UserBody(user))
        }
        router.post("/orders") { request, context -> EditedResponse<OrderBody> in
            let body = try await request.decode(as: PlaceOrderRequest.self, context: context)
            let orders = try context.resolve((any OrderService).self)
            let order = try await orders.placeOrder(
                userID: body.userID, items: body.items.map { OrderItem(sku: $0.sku, quantity: $0.quantity) })
            return EditedResponse(status: .created, response: OrderBody(order, payments: []))
        }
        router.post("/orders/:id/payments") { request, context -> EditedResponse<PaymentBody> in
            let id = try orderID(context)
            let body = try await request.decode(as: PayRequest.self, context: context)
            let payments = try context.resolve((any PaymentService).self)
            let outcome = try await payments.pay(orderID: id, cardNumber: body.cardNumber)
            return EditedResponse(
                status: outcome.payment.status == .captured
                    ? .created : .init(code: 402, reasonPhrase: "Payment Required"),
                response: PaymentBody(outcome.payment))
        }
        router.get("/orders/:id") { _, context -> OrderBody in
            let id = try orderID(context)
            let orders = try context.resolve((any OrderRepository).self)
            let payments = try context.resolve((any PaymentRepository).self)
            guard let order = try orders.order(id: id) else { throw ShopError(.notFound, "No order with id \(id).") }
            return OrderBody(order, payments: try payments.payments(orderID: id))
        }
        addMethodNotAllowed(to: router)
        return router
    }

    /// Answers 405 (with `Allow`) for the methods a known path does not serve.
    static func addMethodNotAllowed(to router: Router<ShopRequestContext>) {
        let all: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
        for (path, methods) in paths {
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            for method in all where !methods.contains(method) {
                router.on(path, method: method) { request, _ -> Response in
                    throw ShopError(
                        .methodNotAllowed, "\(request.method.rawValue) is not allowed here; use \(allow).",
                        headers: [.allow: allow])
                }
            }
        }
    }

    /// The `{id}` path parameter, or 404 when it is not a number.
    static func orderID(_ context: ShopRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self) else {
            throw ShopError(.notFound, "Order ids are numbers.")
        }
        return id
    }
}
