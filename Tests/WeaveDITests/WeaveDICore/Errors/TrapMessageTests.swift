import Foundation
import Testing

@testable import WeaveDI
@testable import WeaveDICore

// What the property wrappers' traps say: look-alike registrations, and the optional declaration of
// the same wrapper that reads `nil` instead.

protocol TrapPrinter {}
protocol TrapPrinters {}
struct TrapPrintersImpl: TrapPrinters {}

final class TrapFactoryOwner {
    @Factory var printer: any TrapPrinter
}

final class TrapInjectedOwner {
    @Injected var printer: any TrapPrinter
}

final class TrapRequiredOwner {
    @RequiredInject var printer: any TrapPrinter
}

@Suite("Trap messages")
struct TrapMessageTests {
    @Test("a non-optional @Factory's trap lists look-alikes and suggests an optional @Factory")
    func factoryProperty() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.shared.register(TrapPrinters.self) { TrapPrintersImpl() }
            _ = TrapFactoryOwner().printer
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@Factory could not provide WeaveDITests.TrapPrinter to TrapFactoryOwner"))
        #expect(stderr.contains("Registered types with similar names: WeaveDITests.TrapPrinters."))
        #expect(stderr.contains("declare the property `@Factory var …: TrapPrinter?`"))
        #expect(!stderr.contains("@Inject var"))
    }

    @Test("@Injected with no argument traps when missing, suggesting an optional @Injected")
    func injectedProperty() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.shared.register(TrapPrinters.self) { TrapPrintersImpl() }
            _ = TrapInjectedOwner().printer
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@Injected could not provide WeaveDITests.TrapPrinter to TrapInjectedOwner"))
        #expect(stderr.contains("Registered types with similar names: WeaveDITests.TrapPrinters."))
        #expect(stderr.contains("declare the property `@Injected var …: TrapPrinter?`"))
    }

    @Test("@RequiredInject's trap lists look-alikes and suggests @Inject")
    func requiredInject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.shared.register(TrapPrinters.self) { TrapPrintersImpl() }
            _ = TrapRequiredOwner().printer
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@RequiredInject could not provide WeaveDITests.TrapPrinter to TrapRequiredOwner"))
        #expect(stderr.contains("Registered types with similar names: WeaveDITests.TrapPrinters."))
        #expect(stderr.contains("declare the property `@Inject var …: TrapPrinter?`"))
    }

    @Test("the key message names the key's type, its declaration and the inner failure")
    func keyMessage() {
        let message = InjectionTrap.keyMessage(
            type: TrapPrinter.self, site: RegistrationSite(fileID: "App/Keys.swift", line: 7),
            error: .dependencyNotFound(TrapPrinters.self))
        #expect(
            message.hasPrefix(
                "The Factory<WeaveDITests.TrapPrinter> key declared at App/Keys.swift:7 has no value to return: No registration for WeaveDITests.TrapPrinters."
            ))
        #expect(
            message.hasSuffix("Call the key's `resolveOrThrow()` to get this failure as an error instead of a trap."))
    }
}
