import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

protocol LoggerProtocol: Sendable { func info(_ message: String) }
struct QuietLogger: LoggerProtocol { func info(_ message: String) {} }
protocol AnalyticsSink: Sendable { var name: String { get } }
struct FirebaseAnalytics: AnalyticsSink { let name = "firebase" }
struct NoOpAnalytics: AnalyticsSink { let name = "noop" }

@Suite("UnifiedDI facade", .capturesLog)
struct UnifiedDITests {
    @Test func registerManyHandlesEveryRegistrationForm() {
        Container.withShared(Container()) {
            let isDebug = true
            UnifiedDI.registerMany {
                Registration(UserStore.self) { StubUserRepository() }
                Registration(LoggerProtocol.self, default: QuietLogger())
                Registration(
                    AnalyticsSink.self, condition: !isDebug,
                    factory: { FirebaseAnalytics() },
                    fallback: { NoOpAnalytics() })
                if isDebug { Registration("debug", String.self) { "on" } }
            }
            #expect(UnifiedDI.resolve(UserStore.self) != nil)
            #expect(UnifiedDI.resolve(LoggerProtocol.self) != nil)
            #expect(UnifiedDI.resolve(AnalyticsSink.self)?.name == "noop")
            #expect(UnifiedDI.resolve("debug", String.self) == "on")
        }
    }

    /// `DI` is the same facade: one type, one shared container, so what one name registers the
    /// other resolves, a singleton is one instance under both, and `releaseAll` empties both.
    @Test func diIsTheSameFacade() async throws {
        #expect(DI.self == UnifiedDI.self)
        try await Container.withShared(Container()) { () async throws in
            final class Shared: Sendable {}
            DI.register(Shared.self, scope: .singleton) { Shared() }
            UnifiedDI.register("named", String.self) { "from UnifiedDI" }
            #expect(DI.resolve(Shared.self) === UnifiedDI.resolve(Shared.self))
            #expect(DI.resolve("named", String.self) == "from UnifiedDI")
            #expect((try? DI.resolveOrThrow(Shared.self)) === Container.shared.resolve(Shared.self))
            DI.registerAsync(Int.self) { 42 }
            #expect(try await UnifiedDI.resolveAsync(Int.self) == 42)
            await DI.releaseAll()
            #expect(UnifiedDI.resolve(Shared.self) == nil)
        }
    }

    @Test func registerAcceptsASendableFactoryValue() {
        Container.withShared(Container()) {
            let factory: @Sendable () -> String = { "made" }
            UnifiedDI.register(String.self, factory: factory)
            #expect(UnifiedDI.resolve(String.self) == "made")
        }
    }

    @Test func releaseAllEmptiesTheSharedContainer() async {
        await Container.withShared(Container()) {
            UnifiedDI.register(String.self) { "x" }
            await UnifiedDI.releaseAll()
            #expect(UnifiedDI.resolve(String.self) == nil)
        }
    }

    @Test func resolveOrThrowExplainsAMissWithLookAlikes() {
        let container = Container()
        final class UserStoreImpl {}
        container.register(UserStoreImpl.self) { UserStoreImpl() }
        do {
            _ = try container.resolveOrThrow(UserStore.self)
            Issue.record("expected an error")
        } catch let DIError.dependencyNotFound(type, _, similar) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(UserStore.self))
            #expect(similar.contains { $0.hasSuffix("UserStoreImpl") })
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func factoryErrorsCarryTheUnderlyingError() {
        let container = Container()
        container.register(String.self) { throw TestFailure(reason: "disk full") }
        do {
            _ = try container.resolveOrThrow(String.self)
            Issue.record("expected an error")
        } catch let DIError.factoryFailed(type, _, underlying) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(underlying as? TestFailure == TestFailure(reason: "disk full"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(container.resolve(String.self) == nil)
    }

    @Test func errorMessagesNameTheTypesAndTheFix() {
        let missing = DIError.dependencyNotFound(UserStore.self)
        #expect(missing.description.contains("UserStore"))
        #expect(missing.description.contains("register"))
        #expect(missing.localizedDescription.contains("UserStore"))
        let cycle = DIError.circularDependency(path: ["A", "B", "A"])
        #expect(cycle.description.contains("A -> B -> A"))
    }

    @Test func resolutionErrorHookHearsEveryFailure() {
        let container = Container()
        struct Unregistered {}
        let heard = Counter()
        let token = UnifiedDI.onResolutionError { name, _ in
            if name.hasSuffix("Unregistered") { heard.increment() }
        }
        defer { token.cancel() }
        _ = container.resolve(Unregistered.self)
        _ = container.resolve(Unregistered.self)
        #expect(heard.value == 2)
    }

    @Test func slowResolutionHookFires() {
        let container = Container()
        final class SlowService: Sendable {}
        container.register(SlowService.self) {
            Thread.sleep(forTimeInterval: 0.02)
            return SlowService()
        }
        let heard = Counter()
        let token = UnifiedDI.onSlowResolution { name, seconds in
            if name.hasSuffix("SlowService"), seconds >= 0.01 { heard.increment() }
        }
        defer { token.cancel() }
        _ = container.resolve(SlowService.self)
        #expect(heard.value == 1)
    }

    @Test func resolveWithTrackingRecordsStatistics() {
        Container.withShared(Container()) {
            UnifiedDI.register(String.self) { "x" }
            _ = UnifiedDI.resolveWithTracking(String.self)
            let stats = UnifiedDI.statistics().first { $0.typeName == "Swift.String" }
            #expect(stats?.resolutions == 1)
            #expect(stats?.timedResolutions == 1)
        }
    }

    @Test func memoryPressureHookFires() {
        let heard = Counter()
        let token = UnifiedDI.onMemoryPressure { heard.increment() }
        defer { token.cancel() }
        UnifiedDI.reportMemoryPressure()
        #expect(heard.value >= 1)
    }

    @Test func duplicateRejectionKeepsTheFirstAndReportsBothSites() {
        let container = Container()
        container.duplicatePolicy = .reject
        container.register(String.self) { "first" }
        let heard = Counter()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .duplicateRegistration(let type, _, _, _) = error,
                ObjectIdentifier(type) == ObjectIdentifier(String.self)
            {
                heard.increment()
            }
        }
        defer { token.cancel() }
        container.register(String.self) { "second" }
        #expect(container.resolve(String.self) == "first")
        #expect(heard.value == 1)
    }
}
