import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

@MainActor
final class MainActorKeychain {
    /// Set by an initializer only the main actor can run: `assumeIsolated` stops the program
    /// anywhere else.
    let builtOnMainActor: Bool
    init() {
        builtOnMainActor = MainActor.assumeIsolated { MainActorKeychain.mainActorOnly() }
    }

    static func mainActorOnly() -> Bool { true }
}

@globalActor
actor StorageActor {
    static let shared = StorageActor()
}

@StorageActor
final class StorageIsolatedCache {
    init() { StorageActor.shared.assertIsolated() }
    func ping() -> Bool { true }
}

struct AsyncMissingDependency: Sendable {}
final class AsyncNeedsMissing: Sendable {}
final class AsyncLoopA: Sendable {}
final class AsyncChildLoopA: Sendable {}
final class AsyncChildLoopB: Sendable {}
final class AsyncLoopB: Sendable {}
final class AsyncThrowing: Sendable {}
final class AsyncHolder: Sendable {}
final class AsyncHeld: Sendable {}
final class AsyncSyncLeaf: Sendable {}
final class AsyncRoot: Sendable {}
final class AsyncSlowProbe: Sendable {}

@Suite("Async factories: actor isolation", .capturesLog)
struct AsyncIsolationTests {
    /// A `@MainActor` factory runs on the main actor, whoever resolves it (here a detached task).
    /// The test module is compiled in the Swift 6 mode with complete checking, warnings-free, and
    /// needs no `@unchecked` for it.
    @Test func mainActorFactoryRunsOnTheMainActor() async throws {
        let container = Container()
        container.registerAsync(MainActorKeychain.self, scope: .singleton) { @MainActor in MainActorKeychain() }
        let keychain = try await Task.detached { try await container.resolveAsync(MainActorKeychain.self) }.value
        #expect(keychain.builtOnMainActor)
    }

    @Test func globalActorFactoryRunsOnItsActor() async throws {
        let container = Container()
        container.registerAsync(StorageIsolatedCache.self) { @StorageActor in StorageIsolatedCache() }
        let cache = try await container.resolveAsync(StorageIsolatedCache.self)
        #expect(await cache.ping())
    }
}

@Suite("Async factories: diagnostics", .capturesLog)
struct AsyncDiagnosticsTests {
    private func brokenGraph() -> Container {
        let container = Container()
        container.registerAsync(AsyncNeedsMissing.self, scope: .singleton) {
            _ = try await container.resolveAsync(AsyncMissingDependency.self)
            return AsyncNeedsMissing()
        }
        container.registerAsync(AsyncLoopA.self, scope: .singleton) {
            _ = try await container.resolveAsync(AsyncLoopB.self)
            return AsyncLoopA()
        }
        container.registerAsync(AsyncLoopB.self) {
            _ = try await container.resolveAsync(AsyncLoopA.self)
            return AsyncLoopB()
        }
        container.registerAsync(AsyncThrowing.self) { throw CancellationErrorLookalike() }
        container.registerAsync(AsyncHolder.self, scope: .singleton) {
            _ = try await container.resolveAsync(AsyncHeld.self)
            return AsyncHolder()
        }
        container.registerAsync(AsyncHeld.self) { AsyncHeld() }
        return container
    }

    struct CancellationErrorLookalike: Error {}

    @Test func validateAsyncBuildsAsyncRegistrationsAndReportsEveryProblem() async {
        let container = brokenGraph()
        let report = await container.validateAsync()
        #expect(report.validatedCount == 6)
        #expect(report.unbuiltAsyncRegistrations.isEmpty)
        #expect(report.missingDependencies.map(\.missing) == ["WeaveDITests.AsyncMissingDependency"])
        #expect(report.missingDependencies.first?.dependent == "WeaveDITests.AsyncNeedsMissing")
        #expect(report.cycles.count == 1)
        #expect(Set(report.cycles.first?.path ?? []) == ["WeaveDITests.AsyncLoopA", "WeaveDITests.AsyncLoopB"])
        #expect(report.failingFactories.map(\.typeName) == ["WeaveDITests.AsyncThrowing"])
        // A singleton holding a transient, twice: AsyncHolder → AsyncHeld, AsyncLoopA → AsyncLoopB.
        #expect(report.captiveDependencies.map(\.dependency) == ["WeaveDITests.AsyncHeld", "WeaveDITests.AsyncLoopB"])
        #expect(!report.isValid)
        // The app's container built nothing.
        #expect(container.statistics().allSatisfy { $0.resolutions == 0 })
    }

    @Test func synchronousValidateListsWhatItCouldNotBuild() {
        let report = brokenGraph().validate()
        #expect(report.validatedCount == 0)
        #expect(report.unbuiltAsyncRegistrations.count == 6)
        #expect(report.description.contains("validateAsync()"))
    }

    @Test func validateAsyncDivertsResolutionsAskedOfTheValidatedContainer() async {
        let container = Container()
        container.register(AsyncSyncLeaf.self, scope: .singleton) { AsyncSyncLeaf() }
        container.registerAsync(AsyncRoot.self, scope: .singleton) {
            await Task.yield()
            _ = container.resolve(AsyncSyncLeaf.self) // the captured container, synchronously
            _ = try await container.resolveAsync(AsyncSyncLeaf.self)
            return AsyncRoot()
        }
        let report = await container.validateAsync()
        #expect(report.isValid)
        let root = report.graph.nodes(typeName: "WeaveDITests.AsyncRoot").first
        #expect(root.map { report.graph.dependencies(of: $0.id).map(\.typeName) } == ["WeaveDITests.AsyncSyncLeaf"])
        // Only the sandbox's copies were resolved: the app's container counts nothing.
        #expect(container.statistics(for: AsyncSyncLeaf.self)?.resolutions ?? 0 == 0)
        #expect(container.statistics(for: AsyncRoot.self)?.resolutions ?? 0 == 0)
    }

    @Test func graphRecordsAsyncEdgesToAsyncAndSyncRegistrations() async throws {
        let container = Container()
        container.register(AsyncSyncLeaf.self) { AsyncSyncLeaf() }
        container.registerAsync(AsyncHeld.self) { AsyncHeld() }
        container.registerAsync(AsyncRoot.self) {
            _ = container.resolve(AsyncSyncLeaf.self)
            _ = try await container.resolveAsync(AsyncHeld.self)
            return AsyncRoot()
        }
        _ = try await container.resolveAsync(AsyncRoot.self)
        let graph = container.dependencyGraph()
        let root = try #require(graph.nodes(typeName: "WeaveDITests.AsyncRoot").first)
        #expect(
            Set(graph.dependencies(of: root.id).map(\.typeName)) == [
                "WeaveDITests.AsyncSyncLeaf", "WeaveDITests.AsyncHeld",
            ])
    }

    @Test func statisticsCountAsyncResolutions() async throws {
        let container = Container()
        container.registerAsync(AsyncHeld.self, scope: .singleton) { AsyncHeld() }
        for _ in 0..<3 { _ = try await container.resolveAsync(AsyncHeld.self) }
        #expect(container.statistics(for: AsyncHeld.self)?.resolutions == 3)
    }

    @Test func asyncSingletonsAreDisposedAtShutdown() async throws {
        final class Pool: AsyncDisposable {
            let disposed = Recorder<DisposalReason>()
            func dispose(reason: DisposalReason) async { disposed.append(reason) }
        }
        let container = Container()
        container.registerAsync(Pool.self, scope: .singleton) { Pool() }
        let pool = try await container.resolveAsync(Pool.self)
        await container.disposeSingletons()
        await container.disposeSingletons()
        #expect(pool.disposed.all == [DisposalReason.shutdown])
    }
}

extension DiagnosticsGlobalState {
    @Suite struct AsyncHooks {
        @Test func slowResolutionHookHearsAnAsyncFactory() async throws {
            let events = Recorder<SlowEvent>()
            let token = UnifiedDI.onSlowResolution { events.append(SlowEvent(name: $0, seconds: $1)) }
            defer { token.cancel() }
            let container = Container()
            container.registerAsync(AsyncSlowProbe.self) {
                try await Task.sleep(nanoseconds: 30_000_000)
                return AsyncSlowProbe()
            }
            _ = try await container.resolveAsync(AsyncSlowProbe.self)
            let mine = events.all.filter { $0.name == "WeaveDITests.AsyncSlowProbe" }
            #expect(mine.count == 1)
            #expect(mine.first.map { $0.seconds >= 0.03 } == true)
        }

        @Test func errorHookHearsAnAsyncCycleOnce() async {
            let events = Recorder<ErrorEvent>()
            let token = UnifiedDI.onResolutionError { events.append(ErrorEvent(name: $0, error: $1)) }
            defer { token.cancel() }
            let container = Container()
            container.registerAsync(AsyncLoopA.self) {
                _ = try await container.resolveAsync(AsyncLoopB.self)
                return AsyncLoopA()
            }
            container.registerAsync(AsyncLoopB.self) {
                _ = try await container.resolveAsync(AsyncLoopA.self)
                return AsyncLoopB()
            }
            _ = try? await container.resolveAsync(AsyncLoopA.self)
            let mine = events.all.filter { $0.name.hasPrefix("WeaveDITests.AsyncLoop") }
            #expect(mine.count == 1)
            guard case .circularDependency(let path)? = mine.first?.error else {
                Issue.record("expected a cycle, got \(mine)")
                return
            }
            #expect(path == ["WeaveDITests.AsyncLoopA", "WeaveDITests.AsyncLoopB", "WeaveDITests.AsyncLoopA"])
        }

        /// A cycle through a child task (`async let`) surfaces in the child and again at the
        /// parent's `resolveAsync`: the hook hears it once.
        @Test func errorHookHearsACycleThroughAChildTaskOnce() async {
            let events = Recorder<ErrorEvent>()
            let token = UnifiedDI.onResolutionError { events.append(ErrorEvent(name: $0, error: $1)) }
            defer { token.cancel() }
            let container = Container()
            container.registerAsync(AsyncChildLoopA.self, scope: .singleton) {
                async let b = container.resolveAsync(AsyncChildLoopB.self)
                _ = try await b
                return AsyncChildLoopA()
            }
            container.registerAsync(AsyncChildLoopB.self) {
                _ = try await container.resolveAsync(AsyncChildLoopA.self)
                return AsyncChildLoopB()
            }
            _ = try? await container.resolveAsync(AsyncChildLoopA.self)
            let mine = events.all.filter { $0.name.hasPrefix("WeaveDITests.AsyncChildLoop") }
            #expect(mine.count == 1, "\(mine)")
            guard case .circularDependency(let path)? = mine.first?.error else {
                Issue.record("expected a cycle, got \(mine)")
                return
            }
            #expect(
                path == [
                    "WeaveDITests.AsyncChildLoopA", "WeaveDITests.AsyncChildLoopB", "WeaveDITests.AsyncChildLoopA",
                ])
        }

        @Test func errorHookHearsTheMisuse() {
            let events = Recorder<ErrorEvent>()
            let token = UnifiedDI.onResolutionError { events.append(ErrorEvent(name: $0, error: $1)) }
            defer { token.cancel() }
            let container = Container()
            container.registerAsync(AsyncSlowProbe.self) { AsyncSlowProbe() }
            #expect(container.resolve(AsyncSlowProbe.self) == nil)
            let mine = events.all.filter { $0.name == "WeaveDITests.AsyncSlowProbe" }
            #expect(mine.count == 1)
        }
    }
}
