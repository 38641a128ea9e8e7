import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

private protocol Plugin: Sendable { var id: String { get } }
private final class NamedPlugin: Plugin {
    let id: String
    init(_ id: String) { self.id = id }
}
private struct Missing: Sendable {}

/// Whether two contributions are the same instance.
private func same(_ a: any Plugin, _ b: any Plugin) -> Bool {
    ObjectIdentifier(a as! NamedPlugin) == ObjectIdentifier(b as! NamedPlugin)
}

@Suite("Multi-binding", .capturesLog)
struct MultiBindingTests {
    @Test func noContributionIsAnEmptyArray() throws {
        let container = Container()
        #expect(container.resolveAll(Plugin.self).isEmpty)
        #expect(try container.resolveAllOrThrow(Plugin.self).isEmpty)
    }

    @Test func contributionsComeInRegistrationOrder() {
        let container = Container()
        container.register(into: Plugin.self) { NamedPlugin("analytics") }
        container.register(into: Plugin.self, name: "crash") { NamedPlugin("crash") }
        container.register(into: Plugin.self) { NamedPlugin("logging") }
        #expect(container.resolveAll(Plugin.self).map(\.id) == ["analytics", "crash", "logging"])
        // A contribution is not a registration of the type itself.
        #expect(container.resolve(Plugin.self) == nil)
    }

    @Test func namedContributionReplacesItsNamesake() {
        let container = Container()
        container.register(into: Plugin.self, name: "crash") { NamedPlugin("old") }
        container.register(into: Plugin.self) { NamedPlugin("other") }
        container.register(into: Plugin.self, name: "crash") { NamedPlugin("new") }
        #expect(container.resolveAll(Plugin.self).map(\.id) == ["other", "new"])
    }

    @Test func eachContributionKeepsItsOwnLifetime() {
        let container = Container()
        container.register(into: Plugin.self, scope: .singleton) { NamedPlugin("shared") }
        container.register(into: Plugin.self) { NamedPlugin("fresh") }
        let first = container.resolveAll(Plugin.self)
        let second = container.resolveAll(Plugin.self)
        #expect(same(first[0], second[0]))
        #expect(!same(first[1], second[1]))
    }

    @Test func theHandleRemovesOnlyItsContribution() {
        let container = Container()
        container.register(into: Plugin.self) { NamedPlugin("a") }
        let handle = container.register(into: Plugin.self) { NamedPlugin("b") }
        container.register(into: Plugin.self) { NamedPlugin("c") }
        #expect(handle.unregister())
        #expect(!handle.unregister())
        #expect(container.resolveAll(Plugin.self).map(\.id) == ["a", "c"])
    }

    @Test func parentContributionsComeFirst() {
        let root = Container()
        let feature = Container(parent: root)
        let screen = Container(parent: feature)
        screen.register(into: Plugin.self) { NamedPlugin("screen") }
        root.register(into: Plugin.self) { NamedPlugin("root") }
        feature.register(into: Plugin.self) { NamedPlugin("feature") }
        root.register(into: Plugin.self) { NamedPlugin("root 2") }
        #expect(screen.resolveAll(Plugin.self).map(\.id) == ["root", "root 2", "feature", "screen"])
        #expect(root.resolveAll(Plugin.self).map(\.id) == ["root", "root 2"])
    }

    @Test func aFailingContributionIsReportedAndLeftOut() {
        let container = Container()
        container.register(into: Plugin.self) { NamedPlugin("ok") }
        container.register(into: Plugin.self) { throw TestFailure(reason: "down") }
        #expect(container.resolveAll(Plugin.self).map(\.id) == ["ok"])
        #expect(throws: DIError.self) { try container.resolveAllOrThrow(Plugin.self) }
    }

    @Test func aContributionThatResolvesAMissingTypeFailsValidation() {
        let container = Container()
        container.register(into: Plugin.self) { NamedPlugin("fine") }
        container.register(into: Plugin.self) {
            _ = try container.resolveOrThrow(Missing.self)
            return NamedPlugin("broken")
        }
        let report = container.validate()
        #expect(!report.isValid)
        #expect(report.missingDependencies.count == 1)
    }

    @Test func threadsRacingForASingletonContributionShareOne() async {
        let container = Container()
        let built = Counter()
        container.register(into: Plugin.self, scope: .singleton) {
            built.increment()
            Thread.sleep(forTimeInterval: 0.01)
            return NamedPlugin("once")
        }
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { await Task.detached { container.resolveAll(Plugin.self).count }.value } }
            for await count in group { #expect(count == 1) }
        }
        #expect(built.value == 1)
    }

    @Test func asyncContributions() async throws {
        let container = Container()
        container.register(into: Plugin.self) { NamedPlugin("sync") }
        container.registerAsync(into: Plugin.self, scope: .singleton) { () async in NamedPlugin("async") }
        async let first = container.resolveAllAsync(Plugin.self)
        async let second = container.resolveAllAsync(Plugin.self)
        let (a, b) = try await (first, second)
        #expect(a.map(\.id) == ["sync", "async"])
        #expect(same(a[1], b[1]))
        // Synchronously, the async contribution is reported and left out.
        #expect(container.resolveAll(Plugin.self).map(\.id) == ["sync"])
    }

    @Test func aContributionResolvingTheCollectionIsACycle() {
        let container = Container()
        container.register(into: Plugin.self) {
            let others = try container.resolveAllOrThrow(Plugin.self)
            return NamedPlugin("\(others.count)")
        }
        #expect(throws: DIError.self) { try container.resolveAllOrThrow(Plugin.self) }
    }

    @Test func scopedContributionsFollowTheBoundScope() {
        let container = Container()
        container.register(into: Plugin.self, scope: .request) { NamedPlugin("per request") }
        let first = container.withScope(.request) {
            (container.resolveAll(Plugin.self)[0], container.resolveAll(Plugin.self)[0])
        }
        let second = container.withScope(.request) { container.resolveAll(Plugin.self)[0] }
        #expect(same(first.0, first.1))
        #expect(!same(first.0, second))
    }
}
