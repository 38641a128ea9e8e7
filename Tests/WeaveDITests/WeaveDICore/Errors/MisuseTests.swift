import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

@Suite("Reliability: misuse gets a clear message", .capturesLog)
struct MisuseTests {
    protocol PaymentGateway {}
    final class PaymentGatewayImpl: PaymentGateway {}

    @Test func unregisteredTypeListsLookAlikesAndTheFix() {
        let container = Container()
        container.register(PaymentGatewayImpl.self) { PaymentGatewayImpl() }
        #expect(throws: DIError.self) { try container.resolveOrThrow(PaymentGateway.self) }
        do { _ = try container.resolveOrThrow(PaymentGateway.self) } catch {
            let message = String(describing: error)
            #expect(message.contains("PaymentGateway"))
            #expect(message.contains("PaymentGatewayImpl"))
            #expect(message.contains("container.register(PaymentGateway.self)"))
        }
    }

    @Test func cycleMessageShowsThePath() {
        let container = Container()
        container.register(LoopA.self) { LoopA(b: try container.resolveOrThrow(LoopB.self)) }
        container.register(LoopB.self) { LoopB(c: try container.resolveOrThrow(LoopC.self)) }
        container.register(LoopC.self) { LoopC(a: try container.resolveOrThrow(LoopA.self)) }
        do { _ = try container.resolveOrThrow(LoopA.self) } catch {
            let message = String(describing: error)
            #expect(message.contains("LoopA -> "))
            #expect(message.contains("LoopB -> "))
            #expect(message.contains("LoopC -> "))
        }
    }

    @Test func duplicateRegistrationInStrictModeNamesBothSites() {
        let container = Container()
        container.duplicatePolicy = .reject
        container.register(Int.self) { 1 }
        let message = LockedValue<String>("")
        let token = UnifiedDI.onResolutionError { _, error in
            if case .duplicateRegistration = error { message.mutate { $0 = error.description } }
        }
        defer { token.cancel() }
        container.register(Int.self) { 2 }
        #expect(message.value.contains("MisuseTests.swift:"))
        #expect(message.value.contains("registered twice"))
        #expect(container.resolve(Int.self) == 1)
    }

    @Test func scopeUsedAfterItEndedSaysSo() {
        let container = Container()
        container.register(Int.self, scope: .custom("checkout")) { 1 }
        let checkout = container.beginScope(.custom("checkout"))
        checkout.end()
        container.withScope(checkout) {
            do { _ = try container.resolveOrThrow(Int.self) } catch {
                #expect(String(describing: error).contains("Scope 'checkout' has ended"))
            }
        }
    }

    @Test func moduleRegisteredTwiceReplacesAndLeavesOneRegistration() async {
        let container = Container()
        let module = Module(Int.self) { 7 }
        await container.register(module)
        await container.register(module)
        #expect(container.registrations.count == 1)
        #expect(container.resolve(Int.self) == 7)
    }
}
