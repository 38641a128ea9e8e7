import Foundation
import Testing
import WeaveDITestSupport
import WeaveDITesting

@testable import WeaveDI

#if canImport(XCTest)
    import XCTest
#endif

// With the app's `extension Container: AutoRegistering` in the process, a test's own setup wins:
// the run happens first on the test's container, and never replaces what was registered before it.

final class MockAudit: AuditService {}

final class MockAccountLoader: AccountLoading {
    func load() -> [String] { ["mock"] }
}

/// Lets the app's `registerAllServices()` fill in the containers the test tools make in this test.
struct OwnedAutoRegistration: TestTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await RunLog.$ownsEveryContainer.withValue(true) { try await function() }
    }
}

extension Trait where Self == OwnedAutoRegistration {
    static var ownedAutoRegistration: Self { OwnedAutoRegistration() }
}

@Suite("A test's setup wins over AutoRegistering")
struct TestSetupWinsTests {
    @Test(
        "the .container trait: the closure's registration replaces the app's",
        .ownedAutoRegistration, .container { $0.register(AuditService.self) { MockAudit() } })
    func traitRegistration() {
        #expect(UnifiedDI.resolve(AuditService.self) is MockAudit)
        #expect(Container.shared.resolve(AuditService.self) is MockAudit)
        #expect(InjectingOwner().audit is MockAudit)
        #expect(runLog.count(for: Container.shared) == 1, "the app's setup ran on the test's container")
        // What the closure did not replace is the app's.
        #expect(Container.accountLoader()?.load() == ["checking", "savings"])
    }

    @Test(
        "the .container trait: a Factory key's override replaces the app's",
        .ownedAutoRegistration, .container { _ in Container.accountLoader.register { MockAccountLoader() } })
    func traitFactoryOverride() {
        #expect(Container.accountLoader()?.load() == ["mock"])
        #expect(AccountsViewModel().initialAccounts == ["mock"])
        #expect(UnifiedDI.resolve(AuditService.self) is AuditServiceImpl)
    }

    @Test(
        "the .container trait with UnifiedDI.register in its closure",
        .ownedAutoRegistration, .container { _ in UnifiedDI.register(AuditService.self) { MockAudit() } })
    func traitThroughUnifiedDI() {
        #expect(UnifiedDI.resolve(AuditService.self) is MockAudit)
    }

    @Test("withIsolatedContainer-style setup: withShared on a container registered first")
    func ownContainerRegisteredFirst() {
        let container = runLog.owned()
        container.register(AuditService.self) { MockAudit() }
        Container.accountLoader.register(in: container) { MockAccountLoader() }
        #expect(runLog.count(for: container) == 0)
        Container.withShared(container) {
            #expect(UnifiedDI.resolve(AuditService.self) is MockAudit)
            #expect(Container.accountLoader()?.load() == ["mock"])
        }
        #expect(runLog.count(for: container) == 1, "the app's setup still ran")
        #expect(container.resolve(ScratchPad.self) != nil, "and registered what the test did not")
    }

    @Test("a mock registered after a reset, before the next resolution, wins over the run that follows")
    func mockAfterReset() {
        let container = runLog.owned()
        #expect(container.resolve(AuditService.self) is AuditServiceImpl)
        container.reset()
        container.register(AuditService.self) { MockAudit() }
        #expect(container.resolve(AuditService.self) is MockAudit)
        #expect(runLog.count(for: container) == 2)
    }

    @Test("registrations made after the run replace the run's, as any later registration does")
    func laterRegistrationsReplace() {
        let container = runLog.owned()
        #expect(container.resolve(AuditService.self) is AuditServiceImpl)
        container.register(AuditService.self) { MockAudit() }
        #expect(container.resolve(AuditService.self) is MockAudit)
    }

    @Test("under .reject, a registration the run skips is no duplicate")
    func rejectPolicy() {
        let container = runLog.owned()
        container.duplicatePolicy = .reject
        let heard = Recorder<DIError>()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .duplicateRegistration(let type, _, _, _) = error, type == AuditService.self { heard.append(error) }
        }
        defer { token.cancel() }
        container.register(AuditService.self) { MockAudit() }
        #expect(container.resolve(AuditService.self) is MockAudit)
        #expect(heard.all.isEmpty, "\(heard.all)")
    }
}

#if canImport(XCTest)
    /// `WeaveDITestCase.registerDependencies` wins over the app's `registerAllServices()`.
    final class TestCaseSetupWinsTests: WeaveDITestCase {
        override func invokeTest() {
            RunLog.$ownsEveryContainer.withValue(true) { super.invokeTest() }
        }

        override func registerDependencies(in container: WeaveDI.Container) {
            container.register(AuditService.self) { MockAudit() }
            Container.accountLoader.register(in: container) { MockAccountLoader() }
        }

        func testRegisterDependenciesWins() {
            XCTAssertTrue(UnifiedDI.resolve(AuditService.self) is MockAudit)
            XCTAssertEqual(Container.accountLoader()?.load(), ["mock"])
            XCTAssertNotNil(UnifiedDI.resolve(ScratchPad.self), "the app's other registrations are there")
            XCTAssertEqual(runLog.count(for: container), 1)
        }

        func testWithIsolatedContainerWins() {
            withIsolatedContainer(
                { $0.register(AuditService.self) { MockAudit() } },
                operation: {
                    XCTAssertTrue(UnifiedDI.resolve(AuditService.self) is MockAudit)
                    XCTAssertNotNil(UnifiedDI.resolve(ScratchPad.self))
                })
        }
    }
#endif
