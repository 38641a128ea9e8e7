// What WeaveDI says when it is misused: every failure names the type and what to do.
import Foundation
import WeaveDI

// snippet.hide
protocol PaymentService: Sendable {}
protocol PaymentsService: Sendable {}
struct StripePaymentService: PaymentService, PaymentsService {}
final class UserService: Sendable {
    let orders: OrderService
    init(orders: OrderService) { self.orders = orders }
}
final class OrderService: Sendable {
    let users: UserService
    init(users: UserService) { self.users = users }
}
final class RequestContext: Sendable {}
protocol Logger: Sendable {}
struct PrintLogger: Logger {}
protocol ReceiptPrinter {}
protocol BarcodeScanner {}
protocol AccountLoading {}
final class Credentials: Sendable {}
final class PaymentGateway: Sendable {
    let credentials: Credentials
    init(credentials: Credentials) { self.credentials = credentials }
}
// snippet.show

// snippet.unregistered
let container = WeaveDI.Container()
container.register(PaymentsService.self) { StripePaymentService() }
do {
    _ = try container.resolveOrThrow(PaymentService.self)
} catch {
    print(error)
}
// snippet.end

// snippet.cycle
container.register(UserService.self) { UserService(orders: try container.resolveOrThrow(OrderService.self)) }
container.register(OrderService.self) { OrderService(users: try container.resolveOrThrow(UserService.self)) }
do {
    _ = try container.resolveOrThrow(UserService.self)
} catch {
    print(error)
}
// snippet.end

// snippet.required
final class CheckoutViewModel {
    @RequiredInject var payments: any PaymentService // traps on first read if unregistered
}

func checkout() -> any PaymentService {
    UnifiedDI.requireResolve(PaymentService.self) // traps if unregistered
}

func payments(in container: WeaveDI.Container) -> any PaymentService {
    container.requireResolve(PaymentService.self) // the same trap, for one container
}
// snippet.end

// snippet.factoryProperty
final class ReceiptScreen {
    @Factory var printer: any ReceiptPrinter // traps on a read while unregistered
    @Factory var scanner: (any BarcodeScanner)? // nil while unregistered: never traps
}
// snippet.end

// snippet.injected
final class AccountsViewModel {
    @Injected var loader: any AccountLoading // traps on a read while unregistered
    @Injected var backup: (any AccountLoading)? // nil while unregistered: never traps
}
// snippet.end

// snippet.factoryKey
extension WeaveDI.Container {
    static let gateway = Factory(scope: .singleton) {
        PaymentGateway(credentials: try WeaveDI.Container.shared.resolveOrThrow(Credentials.self))
    }
}

func pay() -> PaymentGateway? {
    do {
        return try WeaveDI.Container.gateway.resolveOrThrow() // throws: Credentials is missing
    } catch {
        print(error)
        return nil
    }
}

func payOrStop() -> PaymentGateway {
    WeaveDI.Container.gateway() // traps: the key has no value to return
}
// snippet.end

// snippet.duplicate
let strict = WeaveDI.Container()
strict.duplicatePolicy = .reject
strict.register(Logger.self) { PrintLogger() }
strict.register(Logger.self) { PrintLogger() } // refused: reported to onResolutionError and logged
// snippet.end

// snippet.scopeEnded
container.register(RequestContext.self, scope: .request) { RequestContext() }
let request = container.beginScope(.request)
request.end()
do {
    _ = try container.withScope(request) { try container.resolveOrThrow(RequestContext.self) }
} catch {
    print(error)
}
// snippet.end

// snippet.deepChain
final class Step: Sendable {
    let next: Step?
    init(_ next: Step?) { self.next = next }
}
let steps = WeaveDI.Container()
for level in 0..<3000 {
    steps.register("step\(level)", Step.self) {
        Step(level < 2999 ? try steps.resolveOrThrow("step\(level + 1)", Step.self) : nil)
    }
}
let smallThread = Thread {
    do { _ = try steps.resolveOrThrow("step0", Step.self) } catch { print(error) }
}
smallThread.stackSize = 512 << 10 // a secondary thread's default on Apple platforms
smallThread.start()
// snippet.end

// snippet.moduleTwice
struct LoggingModuleFactory: ModuleFactory, Sendable {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    init() {
        let registerModule = self.registerModule
        definitions.append { registerModule.makeModule(Logger.self) { PrintLogger() } }
    }
}

func registerTwice() async {
    var manager = ModuleFactoryManager()
    manager.add(LoggingModuleFactory(), layer: .infrastructure, name: "Logging")
    manager.add(LoggingModuleFactory(), layer: .infrastructure, name: "MoreLogging")
    do {
        try await manager.registerAll(to: WeaveDI.Container())
    } catch {
        print(error)
    }
}
// snippet.end

// snippet.hide
await registerTwice()
_ = CheckoutViewModel.self
_ = checkout
_ = payments(in:)
_ = ReceiptScreen.self
_ = AccountsViewModel.self
_ = pay()
_ = payOrStop
