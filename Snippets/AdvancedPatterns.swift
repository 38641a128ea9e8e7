// Decorators, generic registrations, cycles, custom scopes and monitoring.
import Foundation
import WeaveDI

// snippet.hide
struct Order: Sendable { let id: String }
struct OrderResult: Sendable {
    let orderId: String
    let status: String
}
protocol Logger: Sendable { func info(_ message: String) }
struct PrintLogger: Logger { func info(_ message: String) { print(message) } }
struct User: Codable, Sendable { let id: String }
struct Product: Codable, Sendable { let id: String }
// snippet.show

// snippet.decorators
protocol OrderService: Sendable {
    func processOrder(_ order: Order) async throws -> OrderResult
}

struct BasicOrderService: OrderService {
    func processOrder(_ order: Order) async throws -> OrderResult {
        OrderResult(orderId: order.id, status: "processed")
    }
}

struct LoggingOrderService: OrderService {
    let decorated: any OrderService
    let logger: any Logger

    func processOrder(_ order: Order) async throws -> OrderResult {
        logger.info("Processing order: \(order.id)")
        return try await decorated.processOrder(order)
    }
}

await WeaveDI.Container.bootstrap { container in
    container.register(Logger.self, scope: .singleton) { PrintLogger() }
    // The undecorated service under a name; the decorated one is what everyone resolves.
    container.register("BasicOrderService", OrderService.self) { BasicOrderService() }
    container.register(OrderService.self) {
        LoggingOrderService(
            decorated: try container.resolveOrThrow("BasicOrderService", OrderService.self),
            logger: try container.resolveOrThrow(Logger.self)
        )
    }
}
// snippet.end

// snippet.generics
protocol Repository<Entity>: Sendable {
    associatedtype Entity: Codable & Sendable
    func save(_ entity: Entity) async throws
    func fetchAll() async throws -> [Entity]
}

actor InMemoryRepository<T: Codable & Sendable>: Repository {
    private var entities: [T] = []
    func save(_ entity: T) { entities.append(entity) }
    func fetchAll() -> [T] { entities }
}

// Each specialization is its own registration.
UnifiedDI.register((any Repository<User>).self, scope: .singleton) { InMemoryRepository<User>() }
UnifiedDI.register((any Repository<Product>).self, scope: .singleton) { InMemoryRepository<Product>() }

let users = try UnifiedDI.resolveOrThrow((any Repository<User>).self)
try await users.save(User(id: "1"))
// snippet.end

// snippet.cycle
final class UserService: Sendable {
    let orders: OrderHistory
    init(orders: OrderHistory) { self.orders = orders }
}

final class OrderHistory: Sendable {
    let users: UserService
    init(users: UserService) { self.users = users }
}

UnifiedDI.register(UserService.self) { UserService(orders: try UnifiedDI.resolveOrThrow(OrderHistory.self)) }
UnifiedDI.register(OrderHistory.self) { OrderHistory(users: try UnifiedDI.resolveOrThrow(UserService.self)) }

do {
    _ = try UnifiedDI.resolveOrThrow(UserService.self)
} catch {
    // Circular dependency: AdvancedPatterns.UserService -> AdvancedPatterns.OrderHistory -> AdvancedPatterns.UserService. ...
    print(error)
}
// snippet.end

// snippet.breakCycle
// Break it by letting one side find the other on first use instead of while being built.
final class Ledger: @unchecked Sendable { // unchecked: the wrapper's storage is set once, thread-safely
    @Inject var accounts: AccountService?
}

final class AccountService: Sendable {
    let ledger: Ledger
    init(ledger: Ledger) { self.ledger = ledger }
}

UnifiedDI.register(Ledger.self, scope: .singleton) { Ledger() }
UnifiedDI.register(AccountService.self, scope: .singleton) {
    AccountService(ledger: try UnifiedDI.resolveOrThrow(Ledger.self))
}

let accounts = try UnifiedDI.resolveOrThrow(AccountService.self)
print(accounts.ledger.accounts === accounts) // true: the ledger found the service later
// snippet.end

// snippet.customScope
final class CheckoutSession: Sendable {
    let id = UUID()
}

let checkout = Scope.custom("checkout")
UnifiedDI.register(CheckoutSession.self, scope: checkout) { CheckoutSession() }

let container = WeaveDI.Container.shared
let session = container.beginScope(checkout)
let first = container.withScope(session) { container.resolve(CheckoutSession.self) }
let again = container.withScope(session) { container.resolve(CheckoutSession.self) }
session.end() // releases the scope's instances; resolving in it now fails with `scopeEnded`
print(first === again) // true
// snippet.end

// snippet.hooks
let slowToken = UnifiedDI.onSlowResolution { serviceName, duration in
    print("⚠️ Slow DI resolution: \(serviceName) took \(duration * 1000) ms")
}
let errorToken = UnifiedDI.onResolutionError { serviceName, error in
    print("❌ DI resolution failed: \(serviceName) - \(error)")
}
let pressureToken = UnifiedDI.onMemoryPressure {
    print("💾 DI container under memory pressure")
}
// snippet.end

// snippet.statistics
_ = UnifiedDI.resolveWithTracking(OrderService.self)
for entry in UnifiedDI.statistics() where entry.resolutions > 0 {
    print(entry) // "AdvancedPatterns.OrderService: 1 resolutions, 0 misses, avg … ms, max … ms"
}
// snippet.end

// snippet.validation
let report = WeaveDI.Container.shared.validate() // every registration resolved once, in a sandbox
print(report) // "Dependency graph is valid: …" or every problem, grouped by kind
print(report.graph.mermaid()) // paste into any Mermaid renderer
let dot = report.graph.dot() // render with `dot -Tsvg`

// The Module Factory guide's critical-services check, in one line:
try WeaveDI.Container.shared.verifyOrThrow([OrderService.self, Logger.self])
// snippet.end

// snippet.health
actor PaymentGateway: HealthCheckable {
    func healthCheck() async -> HealthStatus {
        .degraded(reason: "sandbox mode")
    }
}

UnifiedDI.register(PaymentGateway.self, scope: .singleton) { PaymentGateway() }
let health = await WeaveDI.Container.shared.checkHealth(timeout: 2)
print(health["AdvancedPatterns.PaymentGateway"] ?? .healthy) // degraded: sandbox mode
// snippet.end

// snippet.hide
print(dot.isEmpty)
slowToken.cancel()
errorToken.cancel()
pressureToken.cancel()
