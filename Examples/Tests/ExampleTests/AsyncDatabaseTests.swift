import DI
import Database
import Foundation
import Testing
import WeaveDI
import WeaveDITesting

/// The database is an async singleton (`registerAsync(AppDatabase.self, scope: .singleton)`):
/// opened and migrated once, on the first `resolveAsync`, however many tasks ask at once.
@Suite(.container)
struct AsyncDatabaseTests {
    /// Counts the builds; an actor, so concurrent builds would be counted, not lost.
    actor Builds {
        private(set) var count = 0
        func record() { count += 1 }
    }

    @Test func theDatabaseIsBuiltOnceWhenManyTasksResolveItAtTheSameTime() async throws {
        let container = WeaveDI.Container.shared
        let builds = Builds()
        AppDI.registerDatabase(AppConfiguration(environment: .testing), into: container) { configuration in
            await builds.record()
            // A slow open, so every task below asks while the build is still going on.
            try await Task.sleep(for: .milliseconds(100))
            return try await AppDI.openDatabase(configuration)
        }

        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(AppDatabase.self)) }
            }
            var identities: Set<ObjectIdentifier> = []
            for try await identity in group { identities.insert(identity) }
            return identities
        }

        #expect(await builds.count == 1)
        #expect(identities.count == 1)
        let database = try await container.resolveAsync(AppDatabase.self)
        #expect(identities == [ObjectIdentifier(database)])
        #expect(try database.appliedMigrations() == AppDatabase.migrationNames)
        #expect(await builds.count == 1)
    }

    @Test func validateAsyncOpensTheDatabaseInItsSandboxAndLeavesTheAppsOwn() async throws {
        let container = WeaveDI.Container.shared
        let builds = Builds()
        AppDI.registerDatabase(AppConfiguration(environment: .testing), into: container) { configuration in
            await builds.record()
            return try await AppDI.openDatabase(configuration)
        }
        let database = try await container.resolveAsync(AppDatabase.self)

        let report = await container.validateAsync()

        #expect(report.isValid, "\(report)")
        #expect(await builds.count == 2) // the sandbox ran the factory once more
        #expect(try await container.resolveAsync(AppDatabase.self) === database)
    }

    @Test func aSynchronousResolveOfTheDatabaseSaysToAwaitIt() async throws {
        _ = try await TestApp.bootstrap()

        #expect {
            _ = try WeaveDI.Container.shared.resolveOrThrow(AppDatabase.self)
        } throws: { error in
            guard case .asyncResolutionRequired(let type, let name)? = error as? DIError else { return false }
            return type == AppDatabase.self && name == nil
        }
    }

    @Test func aFailedOpenIsRetriedThenReported() async throws {
        // A path under a regular file: its directory can never be created.
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "weavedi-blocker-\(UUID().uuidString)")
        try Data().write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let configuration = AppConfiguration(
            environment: .production, databasePath: blocker.appendingPathComponent("shop.sqlite").path)
        let attempts = Builds()
        AppDI.registerDatabase(configuration, into: WeaveDI.Container.shared) { configuration in
            await attempts.record()
            return try await AppDI.openDatabase(configuration)
        }

        await #expect(throws: (any Error).self) {
            _ = try await WeaveDI.Container.shared.resolveAsync(AppDatabase.self)
        }
        // Nothing was stored: the next resolution builds again (and fails again).
        await #expect(throws: (any Error).self) {
            _ = try await WeaveDI.Container.shared.resolveAsync(AppDatabase.self)
        }
        #expect(await attempts.count == 2)
    }
}
