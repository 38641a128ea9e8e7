import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDIModules

private struct RemoteConfiguration: Sendable, Equatable {
    let source: String
    static func defaultConfiguration() -> RemoteConfiguration { RemoteConfiguration(source: "default") }
}

/// A remote configuration service that never answers in time; it records being cancelled.
private struct SlowRemoteConfigService: Sendable {
    let cancelled = Counter()
    func fetchConfiguration() async throws -> RemoteConfiguration {
        do {
            try await Task.sleep(nanoseconds: 60_000_000_000)
        } catch {
            _ = cancelled.next()
            throw error
        }
        return RemoteConfiguration(source: "remote")
    }
}

private protocol DatabaseService: AnyObject, Sendable { func healthCheck() async throws }
private final class Database: DatabaseService {
    func healthCheck() async throws {}
}
/// Fails its first `failures` connections.
private struct DatabaseManager: Sendable {
    let failures: Int
    let attempts = Counter()
    struct ConnectionRefused: Error {}
    func initialize() async throws -> Database {
        if attempts.next() <= failures { throw ConnectionRefused() }
        return Database()
    }
}

private protocol AuthenticationService {}
private protocol AnalyticsService {}
private struct NoOpAnalyticsService: AnalyticsService {}

private enum AsyncModuleError: LocalizedError {
    case databaseInitializationFailed(Error)
    case noAuthProvidersAvailable

    var errorDescription: String? {
        switch self {
        case .databaseInitializationFailed(let error): return "Database initialization failed: \(error)"
        case .noAuthProvidersAvailable: return "No authentication providers could be initialized"
        }
    }
}

/// The Module Factory guide's "Async Module Factory", using the library's `withTimeout` / `withRetry`.
private struct AsyncModuleFactory: Sendable {
    let timeout: TimeInterval
    let configService: SlowRemoteConfigService
    let databaseManager: DatabaseManager

    func makeConfigurationModule() async throws -> Module {
        do {
            let configService = self.configService
            let remoteConfig = try await withTimeout(timeout) {
                try await configService.fetchConfiguration()
            }
            return Module(RemoteConfiguration.self) { remoteConfig }
        } catch {
            // Fallback to local configuration
            return Module(RemoteConfiguration.self) { RemoteConfiguration.defaultConfiguration() }
        }
    }

    func makeDatabaseModule() async throws -> Module {
        do {
            let database = try await withRetry(maxAttempts: 3, delay: 0.001) {
                try await databaseManager.initialize()
            }
            try await database.healthCheck()
            return Module(DatabaseService.self, scope: .singleton) { database }
        } catch {
            throw AsyncModuleError.databaseInitializationFailed(error)
        }
    }

    func makeAuthenticationModule() async throws -> Module {
        throw AsyncModuleError.noAuthProvidersAvailable
    }

    func makeAnalyticsModule() async throws -> Module {
        Module(AnalyticsService.self) { NoOpAnalyticsService() }
    }
}

/// Lets `parties` tasks through only once all of them have arrived.
fileprivate actor Barrier {
    private let parties: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    init(parties: Int) { self.parties = parties }
    func arriveAndWait() async {
        arrived += 1
        if arrived == parties {
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

@Suite("Modules: async modules, timeout and retry", .capturesLog)
struct ModulesAsyncTests {
    @Test("the guide's async factory: one module fails, it is reported, the rest register")
    func asyncFactoryWithOneFailure() async throws {
        let factory = AsyncModuleFactory(
            timeout: 0.05, configService: SlowRemoteConfigService(), databaseManager: DatabaseManager(failures: 2))
        var group = AsyncModuleGroup()
        group.add("configuration") { try await factory.makeConfigurationModule() }
        group.add("database") { try await factory.makeDatabaseModule() }
        group.add("authentication") { try await factory.makeAuthenticationModule() }
        group.add("analytics") { try await factory.makeAnalyticsModule() }

        let container = Container()
        let report = await group.registerAll(into: container)

        #expect(report.loaded == ["configuration", "database", "analytics"])
        #expect(report.failures.map(\.label) == ["authentication"])
        #expect(!report.allSucceeded)
        let failure = try #require(report.failure(for: "authentication"))
        #expect(failure.error.localizedDescription.contains("No authentication providers"))
        #expect(report.description.contains("authentication"))

        // The configuration timed out (its fetch was cancelled) and fell back to the default.
        #expect(container.resolve(RemoteConfiguration.self) == .defaultConfiguration())
        #expect(factory.configService.cancelled.value == 1)
        // The database needed three attempts.
        #expect(container.resolve(DatabaseService.self) != nil)
        #expect(factory.databaseManager.attempts.value == 3)
        #expect(container.resolve(AnalyticsService.self) != nil)
        #expect(!container.isRegistered(AuthenticationService.self))
    }

    @Test("definitions run concurrently")
    func definitionsRunConcurrently() async throws {
        // Each definition waits until all have started: run one at a time, they would never finish.
        let barrier = Barrier(parties: 4)
        var group = AsyncModuleGroup()
        for index in 0..<4 {
            group.add("m\(index)", timeout: 30) {
                await barrier.arriveAndWait()
                return Module(Int.self, name: "m\(index)") { index }
            }
        }
        let report = await group.makeAll()
        #expect(report.allSucceeded, "\(report)")
        #expect(report.modules.compactMap(\.name) == ["m0", "m1", "m2", "m3"])
    }

    @Test("a definition's timeout cancels it and reports timedOut")
    func definitionTimeout() async throws {
        let service = SlowRemoteConfigService()
        var group = AsyncModuleGroup()
        group.addValue(RemoteConfiguration.self, timeout: 0.02) { try await service.fetchConfiguration() }
        group.addValue(Int.self, label: "answer") { 42 }
        let container = Container()
        let report = await group.registerAll(into: container)
        #expect(report.loaded == ["answer"])
        let failure = try #require(report.failures.first)
        #expect(failure.label.contains("RemoteConfiguration"))
        #expect(failure.error as? ModuleLoadingError == .timedOut(after: 0.02))
        #expect(service.cancelled.value == 1)
        #expect(container.resolve(Int.self) == 42)
        #expect(!container.isRegistered(RemoteConfiguration.self))
    }

    @Test("a definition's retries: fails twice, then succeeds on the third attempt")
    func definitionRetries() async throws {
        let manager = DatabaseManager(failures: 2)
        var group = AsyncModuleGroup()
        group.addValue(DatabaseService.self, maxAttempts: 3, retryDelay: 0.001) { try await manager.initialize() }
        let container = Container()
        let report = await group.registerAll(into: container)
        #expect(report.allSucceeded)
        #expect(manager.attempts.value == 3)
        // The async value is the one instance every resolution returns.
        let first = container.resolve(DatabaseService.self)
        #expect(first != nil && first === container.resolve(DatabaseService.self))

        let stubborn = DatabaseManager(failures: 5)
        var failing = AsyncModuleGroup()
        failing.addValue(DatabaseService.self, maxAttempts: 2) { try await stubborn.initialize() }
        let failed = await failing.makeAll()
        #expect(failed.failures.first?.error is DatabaseManager.ConnectionRefused)
        #expect(stubborn.attempts.value == 2)
    }

    @Test("withTimeout returns the value when the operation is quick; rejects a negative limit")
    func withTimeoutBasics() async throws {
        let value = try await withTimeout(5) { 7 }
        #expect(value == 7)
        let viaEnum = try await ModuleLoading.withTimeout(.infinity) { "unbounded" }
        #expect(viaEnum == "unbounded")
        await #expect(throws: ModuleLoadingError.self) { try await withTimeout(-1) { 0 } }
        await #expect(throws: ModuleLoadingError.self) { try await withTimeout(.nan) { 0 } }
        // An error from the operation comes through unchanged.
        await #expect(throws: DatabaseManager.ConnectionRefused.self) {
            try await withTimeout(5) { () async throws -> Int in throw DatabaseManager.ConnectionRefused() }
        }
    }

    @Test("withTimeout: cancelling the caller cancels the operation and is not reported as a timeout")
    func withTimeoutHonoursCallerCancellation() async throws {
        let service = SlowRemoteConfigService()
        let task = Task { try await withTimeout(60) { try await service.fetchConfiguration() } }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(service.cancelled.value == 1)
    }

    @Test("withRetry gives up after maxAttempts with the last error; rejects bad arguments")
    func withRetryExhausts() async throws {
        let manager = DatabaseManager(failures: 10)
        await #expect(throws: DatabaseManager.ConnectionRefused.self) {
            _ = try await withRetry(maxAttempts: 4) { try await manager.initialize() }
        }
        #expect(manager.attempts.value == 4)
        await #expect(throws: ModuleLoadingError.invalidArgument("maxAttempts must be at least 1, got 0")) {
            try await withRetry(maxAttempts: 0) { 1 }
        }
        await #expect(throws: ModuleLoadingError.self) { try await withRetry(maxAttempts: 2, delay: -1) { 1 } }
        let value = try await withRetry(maxAttempts: 2, delay: 0.001) { 3 }
        #expect(value == 3)
    }

    @Test("withRetry honours cancellation: no further attempt once the task is cancelled")
    func withRetryHonoursCancellation() async throws {
        let attempts = Counter()
        let task = Task {
            try await withRetry(maxAttempts: 100, delay: 60) { () async throws -> Int in
                _ = attempts.next()
                throw DatabaseManager.ConnectionRefused()
            }
        }
        while attempts.value == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(attempts.value == 1)

        // A CancellationError from the operation itself is not retried.
        let cancelledAttempts = Counter()
        await #expect(throws: CancellationError.self) {
            try await withRetry(maxAttempts: 5) { () async throws -> Int in
                _ = cancelledAttempts.next()
                throw CancellationError()
            }
        }
        #expect(cancelledAttempts.value == 1)
    }

    @Test("withRetry runs a non-Sendable operation on the caller's actor")
    @MainActor
    func withRetryOnMainActor() async throws {
        final class Counter { var value = 0 } // not Sendable
        let counter = Counter()
        let result = try await withRetry(maxAttempts: 3) { () async throws -> Int in
            counter.value += 1
            if counter.value < 2 { throw DatabaseManager.ConnectionRefused() }
            return counter.value
        }
        #expect(result == 2)
    }
}
