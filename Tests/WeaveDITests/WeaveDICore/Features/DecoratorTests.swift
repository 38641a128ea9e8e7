import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

private protocol DecoOrderService: Sendable { func place() -> [String] }
private final class DecoRealOrderService: DecoOrderService {
    func place() -> [String] { ["real"] }
}
private final class DecoMockOrderService: DecoOrderService {
    func place() -> [String] { ["mock"] }
}
private final class DecoLoggingOrderService: DecoOrderService {
    let decorated: any DecoOrderService
    let label: String
    init(decorated: any DecoOrderService, label: String = "logging") {
        self.decorated = decorated
        self.label = label
    }
    func place() -> [String] { [label] + decorated.place() }
}
private protocol DecoAuditLog: Sendable {}
private final class MemoryDecoAuditLog: DecoAuditLog {}

@Suite("Decorators", .capturesLog)
struct DecoratorTests {
    @Test func everyResolutionIsDecorated() throws {
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { inner in DecoLoggingOrderService(decorated: inner) }
        #expect(try container.resolveOrThrow(DecoOrderService.self).place() == ["logging", "real"])
        #expect(container.resolve(DecoOrderService.self)?.place() == ["logging", "real"])
    }

    @Test func decoratorsComposeInTheOrderAdded() throws {
        let container = Container()
        container.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0, label: "first") }
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0, label: "second") }
        #expect(try container.resolveOrThrow(DecoOrderService.self).place() == ["second", "first", "real"])
    }

    @Test func aSharedInstanceIsDecoratedOnce() async {
        for scope in [Scope.singleton, .weak] {
            let container = Container()
            let decorations = Counter()
            container.register(DecoOrderService.self, scope: scope) { DecoRealOrderService() }
            container.decorate(DecoOrderService.self) { inner in
                decorations.increment()
                return DecoLoggingOrderService(decorated: inner)
            }
            let held = await withTaskGroup(of: (any DecoOrderService)?.self) { group in
                for _ in 0..<8 {
                    group.addTask { await Task.detached { container.resolve(DecoOrderService.self) }.value }
                }
                var all: [any DecoOrderService] = []
                for await value in group { if let value { all.append(value) } }
                return all
            }
            #expect(held.count == 8)
            #expect(decorations.value == 1, "\(scope)")
        }
    }

    @Test func scopedInstancesAreDecoratedOncePerScopeInstance() {
        let container = Container()
        let decorations = Counter()
        container.register(DecoOrderService.self, scope: .request) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { inner in
            decorations.increment()
            return DecoLoggingOrderService(decorated: inner)
        }
        container.withScope(.request) {
            _ = container.resolve(DecoOrderService.self)
            _ = container.resolve(DecoOrderService.self)
        }
        container.withScope(.request) { _ = container.resolve(DecoOrderService.self) }
        #expect(decorations.value == 2)
    }

    @Test func aTransientIsDecoratedEveryTime() {
        let container = Container()
        let decorations = Counter()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { inner in
            decorations.increment()
            return DecoLoggingOrderService(decorated: inner)
        }
        _ = container.resolve(DecoOrderService.self)
        _ = container.resolve(DecoOrderService.self)
        #expect(decorations.value == 2)
    }

    @Test func aTestOverrideIsDecoratedToo() throws {
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0) }
        // The test replaces the app's registration with a mock.
        container.register(DecoOrderService.self) { DecoMockOrderService() }
        #expect(try container.resolveOrThrow(DecoOrderService.self).place() == ["logging", "mock"])
    }

    @Test func namedAndArgumentRegistrationsAndAsyncFactories() async throws {
        let container = Container()
        container.register("eu", DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self, name: "eu") { DecoLoggingOrderService(decorated: $0, label: "eu") }
        container.register(DecoOrderService.self, scope: .singleton) { (region: String) in DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0, label: "any") }
        #expect(try container.resolveOrThrow("eu", DecoOrderService.self).place() == ["eu", "real"])
        #expect(try container.resolveOrThrow(DecoOrderService.self, argument: "us").place() == ["any", "real"])
        let async = Container()
        async.registerAsync(DecoOrderService.self, scope: .singleton) { () async in DecoRealOrderService() }
        async.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0) }
        #expect(try await async.resolveAsync(DecoOrderService.self).place() == ["logging", "real"])
    }

    @Test func removingADecoratorAffectsLaterBuilds() throws {
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        let handle = container.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0) }
        #expect(handle.remove())
        #expect(!handle.remove())
        #expect(try container.resolveOrThrow(DecoOrderService.self).place() == ["real"])
    }

    @Test func aThrowingDecoratorFailsTheResolutionAndStoresNothing() {
        let container = Container()
        let failing = LockedValue(true)
        container.register(DecoOrderService.self, scope: .singleton) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { inner in
            if failing.value { throw TestFailure(reason: "no logger") }
            return DecoLoggingOrderService(decorated: inner)
        }
        #expect(throws: DIError.self) { try container.resolveOrThrow(DecoOrderService.self) }
        failing.mutate { $0 = false }
        #expect(container.resolve(DecoOrderService.self)?.place() == ["logging", "real"])
    }

    @Test func aThrowingDecoratorOfATransientIsTheFactorysFailure() {
        // A transient's decorators run on the specialized path (`runFactory`), not the shared one.
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { _ in throw TestFailure(reason: "no logger") }
        do {
            _ = try container.resolveOrThrow(DecoOrderService.self)
            Issue.record("a throwing decorator let the resolution through")
        } catch let error as DIError {
            guard case .factoryFailed(let type, _, let underlying) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier((any DecoOrderService).self))
            #expect(underlying is TestFailure)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func resolutionsWhileDecoratorsChangeSeeOnePublishedList() async {
        // Readers load the published list without retaining it (it lives as long as the container):
        // decorators added and removed while other threads resolve never tear a list or free one
        // in use. (Also run under ThreadSanitizer.)
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { DecoLoggingOrderService(decorated: $0, label: "kept") }
        let results = await withTaskGroup(of: [[String]].self) { group in
            group.addTask {
                for round in 0..<200 {
                    let handle = container.decorate(DecoOrderService.self) {
                        DecoLoggingOrderService(decorated: $0, label: "round \(round)")
                    }
                    handle.remove()
                }
                return []
            }
            for _ in 0..<3 {
                group.addTask {
                    (0..<500).map { _ in container.resolve(DecoOrderService.self)?.place() ?? [] }
                }
            }
            var all: [[String]] = []
            for await part in group { all += part }
            return all
        }
        #expect(results.count == 1500)
        for places in results {
            // The first decorator always; at most one round's on top of it.
            #expect(places.suffix(2) == ["kept", "real"])
            #expect(places.count == 2 || (places.count == 3 && places[0].hasPrefix("round ")))
        }
        #expect(container.resolve(DecoOrderService.self)?.place() == ["kept", "real"])
    }

    @Test func whatADecoratorResolvesIsValidated() {
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { inner in
            _ = try container.resolveOrThrow(DecoAuditLog.self)
            return DecoLoggingOrderService(decorated: inner)
        }
        let report = container.validate()
        #expect(report.missingDependencies.map(\.missingType).contains { $0 == DecoAuditLog.self })
        container.register(DecoAuditLog.self) { MemoryDecoAuditLog() }
        #expect(container.validate().isValid)
    }

    @Test func aDecoratorResolvingItsOwnTypeIsACycle() {
        let container = Container()
        container.register(DecoOrderService.self) { DecoRealOrderService() }
        container.decorate(DecoOrderService.self) { inner in
            DecoLoggingOrderService(decorated: try container.resolveOrThrow(DecoOrderService.self))
        }
        do {
            _ = try container.resolveOrThrow(DecoOrderService.self)
            Issue.record("resolved through a decorator that resolves its own type")
        } catch let error as DIError {
            guard case .circularDependency = error else {
                Issue.record("unexpected \(error)")
                return
            }
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func theGuidesManualPatternKeepsWorking() throws {
        let container = Container()
        container.register("base", DecoOrderService.self) { DecoRealOrderService() }
        container.register(DecoOrderService.self) {
            DecoLoggingOrderService(decorated: try container.resolveOrThrow("base", DecoOrderService.self))
        }
        #expect(try container.resolveOrThrow(DecoOrderService.self).place() == ["logging", "real"])
    }
}
