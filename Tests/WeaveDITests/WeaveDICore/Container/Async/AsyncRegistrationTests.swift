import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

@Suite("Async factories: registration in every lifetime", .capturesLog)
struct AsyncRegistrationTests {
    @Test func transientBuildsANewInstanceEachTime() async throws {
        let container = Container()
        let serials = Counter()
        container.registerAsync(AsyncService.self) {
            await Task.yield()
            return AsyncService(serial: serials.next())
        }
        let first = try await container.resolveAsync(AsyncService.self)
        let second = try await container.resolveAsync(AsyncService.self)
        #expect(first.serial == 1 && second.serial == 2)
    }

    @Test func singletonIsBuiltOnce() async throws {
        let container = Container()
        let serials = Counter()
        container.registerAsync(AsyncDatabase.self, scope: .singleton) {
            _ = serials.next()
            return await AsyncDatabaseImpl(name: "main")
        }
        let first = try await container.resolveAsync(AsyncDatabase.self)
        let second = try await container.resolveAsync(AsyncDatabase.self)
        #expect(first as AnyObject === second as AnyObject)
        #expect(first.name == "main" && serials.value == 1)
    }

    @Test func weakIsSharedWhileHeldAndRebuiltAfter() async throws {
        let container = Container()
        let serials = Counter()
        container.registerAsync(AsyncService.self, scope: .weak) { AsyncService(serial: serials.next()) }
        var held: AsyncService? = try await container.resolveAsync(AsyncService.self)
        #expect(try await container.resolveAsync(AsyncService.self).serial == 1)
        #expect(held?.serial == 1)
        held = nil
        _ = held
        #expect(try await container.resolveAsync(AsyncService.self).serial == 2)
    }

    @Test func customScopeBuildsOncePerScopeInstance() async throws {
        let container = Container()
        let serials = Counter()
        container.registerAsync(AsyncService.self, scope: .request) {
            await Task.yield()
            return AsyncService(serial: serials.next())
        }
        let (a1, a2) = try await container.withScope(.request) {
            (try await container.resolveAsync(AsyncService.self), try await container.resolveAsync(AsyncService.self))
        }
        let b = try await container.withScope(.request) { try await container.resolveAsync(AsyncService.self) }
        #expect(a1 === a2)
        #expect(a1 !== b)
        #expect(serials.value == 2)
    }

    @Test func namedRegistrationsAreSeparate() async throws {
        let container = Container()
        container.registerAsync("primary", AsyncDatabase.self, scope: .singleton) {
            await AsyncDatabaseImpl(name: "primary")
        }
        container.registerAsync("replica", AsyncDatabase.self, scope: .singleton) {
            await AsyncDatabaseImpl(name: "replica")
        }
        #expect(try await container.resolveAsync("primary", AsyncDatabase.self).name == "primary")
        #expect(try await container.resolveAsync("replica", AsyncDatabase.self).name == "replica")
        await #expect(throws: DIError.self) { try await container.resolveAsync(AsyncDatabase.self) }
    }

    @Test func childContainerResolvesItsParentsAsyncRegistration() async throws {
        let parent = Container()
        parent.registerAsync(AsyncDatabase.self, scope: .singleton) { await AsyncDatabaseImpl(name: "parent") }
        let child = Container(parent: parent)
        let fromChild = try await child.resolveAsync(AsyncDatabase.self)
        let fromParent = try await parent.resolveAsync(AsyncDatabase.self)
        #expect(fromChild as AnyObject === fromParent as AnyObject)
        child.registerAsync(AsyncDatabase.self, scope: .singleton) { await AsyncDatabaseImpl(name: "child") }
        #expect(try await child.resolveAsync(AsyncDatabase.self).name == "child")
    }

    @Test func moduleAndUnifiedDIRegisterAsyncFactories() async throws {
        let container = Container()
        let module = Module(
            AsyncDatabase.self, scope: .singleton, asyncFactory: { await AsyncDatabaseImpl(name: "module") })
        await container.register(module)
        #expect(try await container.resolveAsync(AsyncDatabase.self).name == "module")
        // Trailing-closure form: a closure that awaits picks the async factory.
        let trailing = Module(AsyncService.self) {
            await Task.yield()
            return AsyncService(serial: 7)
        }
        await container.register(trailing)
        #expect(try await container.resolveAsync(AsyncService.self).serial == 7)

        try await Container.withShared(container) { () async throws in
            UnifiedDI.registerAsync("unified", AsyncDatabase.self, scope: .singleton) {
                await AsyncDatabaseImpl(name: "unified")
            }
            #expect(try await UnifiedDI.resolveAsync("unified", AsyncDatabase.self).name == "unified")
            #expect(try await UnifiedDI.resolveAsync(AsyncDatabase.self).name == "module")
        }
    }

    @Test func resolveAsyncAlsoResolvesSynchronousRegistrations() async throws {
        let container = Container()
        container.register(AsyncService.self, scope: .singleton) { AsyncService(serial: 42) }
        container.registerAsync(AsyncDatabase.self) {
            // An async factory resolving a synchronous registration either way.
            let synchronously = container.resolve(AsyncService.self)
            let awaited = try await container.resolveAsync(AsyncService.self)
            return await AsyncDatabaseImpl(name: "\(synchronously?.serial ?? 0)-\(awaited.serial)")
        }
        #expect(try await container.resolveAsync(AsyncService.self).serial == 42)
        #expect(try await container.resolveAsync(AsyncDatabase.self).name == "42-42")
    }

    /// Synchronous resolution inside async code compiles and behaves as before: no async
    /// overload of `resolve` exists to be preferred in an async context.
    @Test func synchronousResolutionInAsyncCodeIsUnchanged() async {
        let container = Container()
        container.register(AsyncService.self) { AsyncService(serial: 1) }
        let value = container.resolve(AsyncService.self)
        let thrown = try? container.resolveOrThrow(AsyncService.self)
        await Task.yield()
        #expect(value?.serial == 1 && thrown?.serial == 1)
    }

    @Test func aFactoryErrorIsWrapped() async {
        struct Refused: Error {}
        let container = Container()
        container.registerAsync(AsyncService.self) { throw Refused() }
        do {
            _ = try await container.resolveAsync(AsyncService.self)
            Issue.record("expected a failure")
        } catch let DIError.factoryFailed(type, _, underlying) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(AsyncService.self))
            #expect(underlying is Refused)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unregisteringAnAsyncScopedRegistrationDropsItsCells() async throws {
        let container = Container()
        let handle = container.registerAsync(AsyncService.self, scope: .session) { AsyncService(serial: 1) }
        _ = try await container.resolveAsync(AsyncService.self)
        #expect(handle.unregister())
        await #expect(throws: DIError.self) { try await container.resolveAsync(AsyncService.self) }
    }
}
