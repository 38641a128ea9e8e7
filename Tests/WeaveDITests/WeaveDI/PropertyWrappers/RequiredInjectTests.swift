import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

private protocol RequiredLogger: AnyObject { func info(_ message: String) }
private final class RequiredLoggerImpl: RequiredLogger, Sendable {
    let id = UUID()
    func info(_ message: String) {}
}
private protocol RequiredLoggr {}
private protocol UnregisteredAnalytics {}

private final class RequiredOwner {
    @RequiredInject var logger: RequiredLogger
    @RequiredInject("audit") var audit: RequiredLogger
}

private struct RequiredStructOwner {
    @RequiredInject var logger: RequiredLogger
}

@MainActor
private final class MainActorRequiredOwner {
    @RequiredInject var logger: RequiredLogger
}

/// Declares a dependency nobody registers; reading it must stop the program.
private final class CheckoutViewModel {
    @RequiredInject var analytics: UnregisteredAnalytics

    var analyticsWrapper: RequiredInject<UnregisteredAnalytics> { _analytics }
}

@Suite("@RequiredInject")
struct RequiredInjectTests {
    @Test("resolves on first read and keeps the instance")
    func keepsFirstInstance() {
        withFreshContainer { container in
            let built = Counter()
            container.register(RequiredLogger.self) {
                _ = built.next()
                return RequiredLoggerImpl()
            }
            let owner = RequiredOwner()
            #expect(owner.logger === owner.logger)
            #expect(built.value == 1)
        }
    }

    @Test("a name selects the named registration")
    func named() {
        withFreshContainer { container in
            let audit = RequiredLoggerImpl()
            container.register("audit", RequiredLogger.self, instance: audit)
            #expect(RequiredOwner().audit === audit)
        }
    }

    @Test("works in structs and @MainActor classes")
    @MainActor
    func structsAndMainActor() {
        withFreshContainer { container in
            let logger = RequiredLoggerImpl()
            container.register(RequiredLogger.self, instance: logger)
            let owner = RequiredStructOwner()
            #expect(owner.logger === logger)
            #expect(MainActorRequiredOwner().logger === logger)
        }
    }

    @Test("the trap message names the type, the owner, the declaration and how to register")
    func trapMessage() {
        let message = InjectionTrap.message(
            wrapper: "@RequiredInject", type: RequiredLoggr.self, name: nil, owner: "UserViewModel",
            site: RegistrationSite(fileID: "App/UserViewModel.swift", line: 12),
            error: .dependencyNotFound(RequiredLoggr.self, name: nil, similar: ["App.RequiredLogger"]))
        #expect(message.contains("@RequiredInject"))
        #expect(message.contains("RequiredLoggr"))
        #expect(message.contains("UserViewModel (declared at App/UserViewModel.swift:12)"))
        #expect(message.contains("App.RequiredLogger"), "look-alike registrations are listed")
        #expect(message.contains("container.register(RequiredLoggr.self) { ... }"))
    }

    @Test("the owner and declaration site are captured where the property is declared")
    func capturesOwner() {
        let owner = CheckoutViewModel()
        #expect(owner.analyticsWrapper.cell.owner == "CheckoutViewModel")
        #expect(owner.analyticsWrapper.cell.site.fileID.hasSuffix("RequiredInjectTests.swift"))
    }

    @Test("a missing dependency stops the program with that message")
    func trapsWhenMissing() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.withShared(Container()) {
                _ = CheckoutViewModel().analytics
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@RequiredInject could not provide"))
        #expect(stderr.contains("UnregisteredAnalytics"))
        #expect(stderr.contains("CheckoutViewModel"))
        #expect(stderr.contains("RequiredInjectTests.swift"))
        #expect(stderr.contains("container.register(UnregisteredAnalytics.self)"))
    }
}
