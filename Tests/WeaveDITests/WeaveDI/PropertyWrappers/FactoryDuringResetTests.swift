import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@_spi(Testing) @testable import WeaveDICore

final class ResetSession: Sendable {}

extension Container {
    static let resetSession = Factory(scope: .singleton) { ResetSession() }
    static let resetWeakSession = Factory(scope: .weak) { ResetSession() }
    static let resetRequestSession = Factory(scope: .request) { ResetSession() }
    static let resetOverriddenSession = Factory(scope: .singleton) { ResetSession() }
}

/// A Factory key whose default cannot fail never fails, whatever another thread does meanwhile:
/// `reset()` (a test's teardown, a logout), `UnifiedDI.releaseAll()`, re-registering or resetting
/// the key. The call returns an instance that was the key's at some point of the call.
@Suite("Factory keys during reset", .serialized)
struct FactoryDuringResetTests {
    /// Resolutions per test: 100 000; 20 000 under ThreadSanitizer, where each is many times
    /// slower (most of CI's sanitizer run was this suite). Only the count changes: what made a
    /// resolution re-run `registerAllServices()` again and again while a reset loop ran is fixed
    /// in the library (`ResetDuringRunTests`).
    static let calls = isThreadSanitized ? 20_000 : 100_000

    /// Whether ThreadSanitizer's runtime is in this process.
    static let isThreadSanitized: Bool = {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__tsan_init") != nil
    }()

    /// Runs `disturb` in a loop on another thread while this one resolves `calls` times; returns
    /// the failures.
    func resolveWhile(
        _ disturb: @escaping @Sendable () -> Void, resolve: @escaping @Sendable () throws -> ResetSession
    ) throws -> [String] {
        let stop = LockedValue(false)
        let disturber = Spawned { () -> Int in
            var rounds = 0
            while !stop.value {
                disturb()
                rounds += 1
                // Gives the resolving thread a turn. Mutexes are not fair: on an oversubscribed
                // machine (the whole suite under ThreadSanitizer on 2 cores) a thread doing nothing
                // but reset() re-took the container's locks before the woken resolver ran, for
                // minutes. A user's reset() is not a loop; the races under test stay the same.
                sched_yield()
            }
            return rounds
        }
        var failures: [String] = []
        for _ in 0..<Self.calls {
            do { _ = try resolve() } catch { failures.append("\(error)") }
        }
        stop.mutate { $0 = true }
        let rounds = try #require(disturber.join(60))
        #expect(rounds > 0)
        return failures
    }

    @Test("a singleton default while another thread loops reset()", arguments: [Scope.singleton, .weak])
    func resetLoop(scope: Scope) throws {
        let container = Container()
        let key = scope == .singleton ? Container.resetSession : Container.resetWeakSession
        let failures = try resolveWhile({ container.reset() }, resolve: { try key.resolveOrThrow(in: container) })
        #expect(failures.isEmpty, "\(failures.count) of \(Self.calls) failed: \(failures.prefix(2))")
    }

    @Test("a request-scoped default while another thread loops reset() and endScope")
    func scopedResetLoop() throws {
        let container = Container()
        let key = Container.resetRequestSession
        let failures = try resolveWhile(
            {
                container.reset()
                container.endScope(.request)
            }, resolve: { try key.resolveOrThrow(in: container) })
        #expect(failures.isEmpty, "\(failures.count) of \(Self.calls) failed: \(failures.prefix(2))")
    }

    @Test("a singleton default through a child container while the root loops reset()")
    func childOfAResetRoot() throws {
        let root = Container()
        let child = Container(parent: root)
        let failures = try resolveWhile(
            { root.reset() }, resolve: { try Container.resetSession.resolveOrThrow(in: child) })
        #expect(failures.isEmpty, "\(failures.count) of \(Self.calls) failed: \(failures.prefix(2))")
    }

    @Test("while another thread registers and resets the key's override")
    func overrideLoop() throws {
        let container = Container()
        let key = Container.resetOverriddenSession
        let failures = try resolveWhile(
            {
                key.register(scope: .singleton, in: container) { ResetSession() }
                key.reset(in: container)
                container.reset()
            }, resolve: { try key.resolveOrThrow(in: container) })
        #expect(failures.isEmpty, "\(failures.count) of \(Self.calls) failed: \(failures.prefix(2))")
    }

    @Test("UnifiedDI.releaseAll() on the shared container while a key is called as apps do: no trap")
    func releaseAllWhileCallingTheKey() async {
        await #expect(processExitsWith: .success) {
            let stop = LockedValue(false)
            let disturber = Thread {
                let done = DispatchSemaphore(value: 0)
                while !stop.value {
                    Task.detached {
                        await UnifiedDI.releaseAll()
                        done.signal()
                    }
                    done.wait()
                }
            }
            disturber.start()
            for _ in 0..<FactoryDuringResetTests.calls { _ = Container.resetSession() }
            stop.mutate { $0 = true }
        }
    }

    @Test("reset() on the shared container while a key is called as apps do: no trap")
    func resetWhileCallingTheKey() async {
        await #expect(processExitsWith: .success) {
            let stop = LockedValue(false)
            Thread { while !stop.value { Container.shared.reset() } }.start()
            for _ in 0..<FactoryDuringResetTests.calls { _ = Container.resetSession() }
            stop.mutate { $0 = true }
        }
    }

    @Test("after the resets stop, the key is a singleton again: one instance per root container")
    func singletonAgainAfterResets() throws {
        let container = Container()
        _ = try resolveWhile(
            { container.reset() }, resolve: { try Container.resetSession.resolveOrThrow(in: container) })
        let first = try Container.resetSession.resolveOrThrow(in: container)
        #expect(try Container.resetSession.resolveOrThrow(in: container) === first)
    }
}

final class HeldSession: Sendable {}

extension Container {
    static let heldSession = Factory(scope: .singleton) { HeldSession() }
}

#if DEBUG
    extension ConcurrencyModelTests {
        /// The window a reset used to fall into, forced: the scoped default is installed, and a
        /// reset runs before the resolution goes on. The call still returns the default's instance
        /// (the resolution holds the record it installed and never looks the key up again).
        @Test("a reset right after a Factory key's default is installed does not fail the call")
        func resetAfterTheDefaultIsInstalled() throws {
            let container = Container()
            let subject = String(reflecting: HeldSession.self)
            let resets = Counter()
            let hook: ConcurrencyTestHooks.Handler = { point, name in
                if point == "factoryDefaultHeld", name == subject {
                    resets.increment()
                    container.reset()
                }
            }
            let first = try ConcurrencyTestHooks.with(hook) { try Container.heldSession.resolveOrThrow(in: container) }
            #expect(resets.value == 1)
            // The instance the call returned was the key's when the call installed its default;
            // the reset dropped it, so the next call builds a new one (and keeps it).
            let second = try Container.heldSession.resolveOrThrow(in: container)
            #expect(second !== first)
            #expect(try Container.heldSession.resolveOrThrow(in: container) === second)
        }
    }
#endif
