import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

// The same shapes as `Snippets/Reliability.swift`, so the messages match the article's.
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
final class Step: Sendable {
    let next: Step?
    init(_ next: Step?) { self.next = next }
}
protocol Logger: Sendable {}
struct PrintLogger: Logger {}
final class CheckoutViewModel {
    @RequiredInject var payments: any PaymentService
}
protocol ReceiptPrinter {}
protocol BarcodeScanner {}
protocol AccountLoading {}
final class Credentials: Sendable {}
final class PaymentGateway: Sendable {
    let credentials: Credentials
    init(credentials: Credentials) { self.credentials = credentials }
}
final class ReceiptScreen {
    @Factory var printer: any ReceiptPrinter
    @Factory var scanner: (any BarcodeScanner)?
}
final class AccountsViewModel {
    @Injected var loader: any AccountLoading
    @Injected var backup: (any AccountLoading)?
}
extension WeaveDI.Container {
    static let gateway = Factory(scope: .singleton) {
        PaymentGateway(credentials: try WeaveDI.Container.shared.resolveOrThrow(Credentials.self))
    }
}
struct LoggingModuleFactory: ModuleFactory, Sendable {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    init() {
        let registerModule = self.registerModule
        definitions.append { registerModule.makeModule(Logger.self) { PrintLogger() } }
    }
}

/// Every message `Reliability.md` documents is what WeaveDI prints for that misuse, once module
/// names and `file:line` sites (which differ between the snippet and this test) are set aside.
@Suite(.capturesLog) struct ReliabilityMessagesTests {
    @Test func unregisteredType() throws {
        let container = WeaveDI.Container()
        container.register(PaymentsService.self) { StripePaymentService() }
        let error = try #require(throwing { try container.resolveOrThrow(PaymentService.self) })
        #expect(Article.matches("Unregistered type", "\(error)"))
    }

    @Test func cycle() throws {
        let container = WeaveDI.Container()
        container.register(UserService.self) { UserService(orders: try container.resolveOrThrow(OrderService.self)) }
        container.register(OrderService.self) { OrderService(users: try container.resolveOrThrow(UserService.self)) }
        let error = try #require(throwing { try container.resolveOrThrow(UserService.self) })
        #expect(Article.matches("Cycle", "\(error)"))
    }

    @Test func requireResolveOfAMissingType() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = UnifiedDI.requireResolve(PaymentService.self)
        }
        #expect(Article.matches("requireResolve of a missing type", Article.trapMessage(result?.standardErrorContent)))
    }

    @Test func requiredInjectOfAMissingType() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = CheckoutViewModel().payments
        }
        #expect(Article.matches("RequiredInject of a missing type", Article.trapMessage(result?.standardErrorContent)))
    }

    @Test func containerRequireResolveOfAMissingType() async throws {
        // The same message as UnifiedDI's: it resolves from the container it is called on.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WeaveDI.Container().requireResolve(PaymentService.self)
        }
        #expect(Article.matches("requireResolve of a missing type", Article.trapMessage(result?.standardErrorContent)))
    }

    @Test func factoryPropertyOfAMissingType() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ReceiptScreen().printer
        }
        #expect(
            Article.matches("Factory property of a missing type", Article.trapMessage(result?.standardErrorContent)))
    }

    @Test func injectedPropertyOfAMissingType() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = AccountsViewModel().loader
        }
        #expect(
            Article.matches("Injected property of a missing type", Article.trapMessage(result?.standardErrorContent)))
    }

    @Test func factoryKeyWithNoValueToReturn() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WeaveDI.Container.gateway()
        }
        #expect(
            Article.matches("Factory key with no value to return", Article.trapMessage(result?.standardErrorContent)))
    }

    /// What the article says instead of a trap: optional properties read `nil`, and the key's
    /// `resolveOrThrow()` throws the failure its `callAsFunction()` stops with.
    @Test func optionalFormsAndResolveOrThrowDoNotTrap() throws {
        let container = WeaveDI.Container()
        try WeaveDI.Container.withShared(container) {
            #expect(ReceiptScreen().scanner == nil)
            #expect(AccountsViewModel().backup == nil)
            let error = try #require(throwing { try WeaveDI.Container.gateway.resolveOrThrow() })
            guard case DIError.dependencyNotFound(let type, _, _) = error else {
                Issue.record("expected dependencyNotFound, got \(error)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(Credentials.self))
            let documented = try #require(Article.message("Factory key with no value to return"))
            #expect(Article.normalized(documented).contains(Article.normalized("\(error)")))
        }
    }

    @Test func duplicateRegistrationRejected() throws {
        let heard = Heard()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .duplicateRegistration(let type, _, _, _) = error, type == Logger.self { heard.set("\(error)") }
        }
        defer { token.cancel() }
        let strict = WeaveDI.Container()
        strict.duplicatePolicy = .reject
        strict.register(Logger.self) { PrintLogger() }
        strict.register(Logger.self) { PrintLogger() }
        #expect(Article.matches("Duplicate registration", try #require(heard.value)))
    }

    @Test func scopeUsedAfterItEnded() throws {
        let container = WeaveDI.Container()
        container.register(RequestContext.self, scope: .request) { RequestContext() }
        let request = container.beginScope(.request)
        request.end()
        let error = try #require(
            throwing {
                try container.withScope(request) { try container.resolveOrThrow(RequestContext.self) }
            })
        #expect(Article.matches("Scope used after it ended", "\(error)"))
    }

    /// The stack guard's message, with its numbers (which depend on the build) set aside.
    @Test func deepChain() throws {
        let steps = WeaveDI.Container()
        for level in 0..<3000 {
            steps.register("step\(level)", Step.self) {
                Step(level < 2999 ? try steps.resolveOrThrow("step\(level + 1)", Step.self) : nil)
            }
        }
        let printed = Heard()
        let done = DispatchSemaphore(value: 0)
        let capture = LogCapture.current
        let smallThread = Thread {
            withCurrentLogCapture(capture) {
                do { _ = try steps.resolveOrThrow("step0", Step.self) } catch { printed.set("\(error)") }
            }
            done.signal()
        }
        smallThread.stackSize = 512 << 10
        smallThread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let documented = try #require(Article.message("Deep chains"))
        let withoutNumbers = { (text: String) in
            Article.normalized(text)
                .replacingOccurrences(of: #"\d+ (factories|KB)"#, with: "N $1", options: .regularExpression)
        }
        #expect(withoutNumbers(documented) == withoutNumbers(try #require(printed.value)))
    }

    @Test func moduleRegisteredTwice() async throws {
        var manager = ModuleFactoryManager()
        manager.add(LoggingModuleFactory(), layer: .infrastructure, name: "Logging")
        manager.add(LoggingModuleFactory(), layer: .infrastructure, name: "MoreLogging")
        var thrown: (any Error)?
        do { try await manager.registerAll(to: WeaveDI.Container()) } catch { thrown = error }
        let error = try #require(thrown)
        #expect(Article.matches("Module registered twice", "\(error)"))
    }
}

/// The error `body` throws, or `nil`.
private func throwing<T>(_ body: () throws -> T) -> (any Error)? {
    do {
        _ = try body()
        return nil
    } catch { return error }
}

/// A value set from a hook.
private final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    func set(_ value: String) { lock.withLock { stored = value } }
    var value: String? { lock.withLock { stored } }
}

/// Reads `Reliability.md`.
enum Article {
    static let text: String = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/WeaveDI/WeaveDI.docc/Reliability.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The first ```text block after the `### title` heading.
    static func message(_ title: String) -> String? {
        guard let heading = text.range(of: "\n### \(title)\n") else { return nil }
        let rest = text[heading.upperBound...]
        guard let open = rest.range(of: "```text\n"),
            let close = rest[open.upperBound...].range(of: "\n```")
        else { return nil }
        return String(rest[open.upperBound..<close.lowerBound])
    }

    /// Module prefixes and `Module/File.swift:line` sites differ between the snippet and a test.
    static func normalized(_ message: String) -> String {
        message
            .replacingOccurrences(
                of: #"[A-Za-z_]+/[A-Za-z_+]+\.swift:\d+"#, with: "<site>", options: .regularExpression
            )
            .replacingOccurrences(of: #"\b(Reliability|DocumentationTests)\."#, with: "", options: .regularExpression)
    }

    static func matches(_ title: String, _ actual: String) -> Bool {
        guard let documented = message(title) else {
            Issue.record("Reliability.md has no message under '### \(title)'")
            return false
        }
        let same = normalized(documented) == normalized(actual)
        if !same { Issue.record("Reliability.md, '\(title)':\n  documented: \(documented)\n  printed:    \(actual)") }
        return same
    }

    /// The message of a `Fatal error: …` line on standard error.
    static func trapMessage(_ standardError: [UInt8]?) -> String {
        let text = String(decoding: standardError ?? [], as: UTF8.self)
        guard let start = text.range(of: "Fatal error: ") else { return text }
        return String(text[start.upperBound...].prefix { $0 != "\n" })
    }
}
