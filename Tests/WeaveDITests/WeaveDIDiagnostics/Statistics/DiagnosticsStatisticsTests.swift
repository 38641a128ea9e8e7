import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

struct StatProbe {}
struct StatMissing {}
final class StatSingleton: Sendable {}
struct StatTracked {}

@Suite(.capturesLog) struct DiagnosticsStatisticsTests {
    @Test func countsResolutionsPerRegistrationAndName() {
        let container = Container()
        container.register(StatProbe.self) { StatProbe() }
        container.register("a", StatProbe.self) { StatProbe() }
        container.register("b", StatProbe.self) { StatProbe() }
        for _ in 0..<3 { _ = container.resolve(StatProbe.self) }
        for _ in 0..<2 { _ = container.resolve("a", StatProbe.self) }
        #expect(container.statistics(for: StatProbe.self)?.resolutions == 3)
        #expect(container.statistics(for: StatProbe.self, name: "a")?.resolutions == 2)
        #expect(container.statistics(for: StatProbe.self, name: "b")?.resolutions == 0)
        let names = container.statistics().map(\.typeName)
        #expect(names == ["WeaveDITests.StatProbe", "WeaveDITests.StatProbe[\"a\"]", "WeaveDITests.StatProbe[\"b\"]"])
    }

    @Test func countsCachedSingletonResolutionsAndErasedOnes() {
        let container = Container()
        container.register(StatSingleton.self, scope: .singleton) { StatSingleton() }
        for _ in 0..<3 { _ = container.resolve(StatSingleton.self) }
        let erased: Any.Type = StatSingleton.self
        _ = container.resolve(erased)
        #expect(container.statistics(for: StatSingleton.self)?.resolutions == 4)
    }

    @Test func countsMissesOfUnregisteredTypes() {
        let container = Container()
        _ = container.resolve(StatMissing.self)
        _ = try? container.resolveOrThrow(StatMissing.self)
        _ = container.resolve("named", StatMissing.self)
        let stats = container.statistics(for: StatMissing.self)
        #expect(stats?.misses == 2)
        #expect(stats?.isRegistered == false)
        #expect(stats?.resolutions == 0)
        #expect(container.statistics(for: StatMissing.self, name: "named")?.misses == 1)
    }

    @Test func resolveWithTrackingTimesEachCallOnce() {
        let container = Container()
        container.register(StatTracked.self) {
            Thread.sleep(forTimeInterval: 0.002)
            return StatTracked()
        }
        for _ in 0..<3 { #expect(container.resolveWithTracking(StatTracked.self) != nil) }
        let stats = container.statistics(for: StatTracked.self)
        #expect(stats?.resolutions == 3)
        #expect(stats?.timedResolutions == 3)
        guard let stats else { return }
        #expect(stats.slowestDuration >= 0.002)
        #expect(stats.averageDuration >= 0.002)
        #expect(stats.slowestDuration >= stats.averageDuration)
        #expect(abs(stats.averageDuration * 3 - stats.totalDuration) < 1e-9)
        #expect(stats.description.hasPrefix("WeaveDITests.StatTracked: 3 resolutions, 0 misses, avg "))
    }

    @Test func resolveWithTrackingOfAMissingTypeCountsAMissNotATiming() {
        let container = Container()
        #expect(container.resolveWithTracking(StatMissing.self) == nil)
        let stats = container.statistics(for: StatMissing.self)
        #expect(stats?.misses == 1)
        #expect(stats?.timedResolutions == 0)
    }

    @Test func resetStatisticsStartsOver() {
        let container = Container()
        container.register(StatProbe.self) { StatProbe() }
        _ = container.resolveWithTracking(StatProbe.self)
        _ = container.resolve(StatMissing.self)
        container.resetStatistics()
        #expect(container.statistics(for: StatProbe.self)?.resolutions == 0)
        #expect(container.statistics(for: StatProbe.self)?.timedResolutions == 0)
        #expect(container.statistics(for: StatMissing.self) == nil)
        #expect(container.resolve(StatProbe.self) != nil)
    }

    @Test func unifiedDIResolveWithTrackingUsesTheSharedContainer() {
        let container = Container()
        container.register(StatTracked.self) { StatTracked() }
        Container.withShared(container) {
            #expect(UnifiedDI.resolveWithTracking(StatTracked.self) != nil)
            #expect(UnifiedDI.statistics().first { $0.typeName == "WeaveDITests.StatTracked" }?.timedResolutions == 1)
        }
    }
}
