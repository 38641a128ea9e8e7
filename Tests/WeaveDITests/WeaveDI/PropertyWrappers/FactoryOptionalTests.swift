import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// An optional `@Factory` / `@Injected` reads the registration of the type it wraps, and `nil`
// without one; it never stops the program.

private protocol OptionalScanner: AnyObject, Sendable {}
private final class LaserScanner: OptionalScanner, @unchecked Sendable {}
private final class OptionalPart: Sendable {}
/// Registered by no test: a miss of it is heard by the hook test alone.
private protocol NeverRegisteredScanner: AnyObject {}
/// Only the cycle and throwing tests register it.
private protocol LoopingScanner: AnyObject {}
private final class LoopingScannerImpl: LoopingScanner {}
private struct ScannerJam: Error {}

private final class OptionalScannerOwner {
    @Factory var scanner: (any OptionalScanner)?
    @Factory("backup") var backupScanner: (any OptionalScanner)?
    @Factory var part: OptionalPart?
    @Factory var count: Int?
    @Injected var injectedScanner: (any OptionalScanner)?
    @Injected("backup") var injectedBackup: (any OptionalScanner)?
}

private final class NeverRegisteredOwner {
    @Factory var scanner: (any NeverRegisteredScanner)?
}

private final class LoopingOwner {
    @Factory var scanner: (any LoopingScanner)?
    @Injected var injected: (any LoopingScanner)?
}

private struct OptionalStructOwner: Sendable {
    @Factory var part: OptionalPart?
}

@Suite("Optional @Factory and @Injected properties", .capturesLog)
struct FactoryOptionalTests {
    @Test("read nil when nothing is registered, and the wrapped type's registration once there is one")
    func nilThenRegistration() {
        withFreshContainer { container in
            let owner = OptionalScannerOwner()
            #expect(owner.scanner == nil)
            #expect(owner.injectedScanner == nil)
            #expect(owner.part == nil)
            #expect(owner.count == nil)
            let scanner = LaserScanner()
            container.register(OptionalScanner.self, instance: scanner)
            container.register(OptionalPart.self) { OptionalPart() }
            container.register(Int.self) { 42 }
            // Registered after the owner was made: every read resolves again.
            #expect(owner.scanner === scanner)
            #expect(owner.injectedScanner === scanner)
            #expect(owner.count == 42)
            let part = owner.part
            #expect(part != nil)
            #expect(owner.part !== part, "a transient registration gives a new instance per read")
        }
    }

    @Test("a name selects the named registration of the wrapped type")
    func named() {
        withFreshContainer { container in
            let owner = OptionalScannerOwner()
            let main = LaserScanner()
            container.register(OptionalScanner.self, instance: main)
            #expect(owner.backupScanner == nil)
            #expect(owner.injectedBackup == nil)
            let backup = LaserScanner()
            container.register("backup", OptionalScanner.self, instance: backup)
            #expect(owner.backupScanner === backup)
            #expect(owner.injectedBackup === backup)
            #expect(owner.scanner === main)
        }
    }

    @Test("works in a Sendable struct and sees a parent container's registration")
    func structAndParent() {
        let parent = Container()
        let part = OptionalPart()
        parent.register(OptionalPart.self, instance: part)
        let child = Container(parent: parent)
        Container.withShared(child) {
            #expect(OptionalStructOwner().part === part)
        }
    }

    @Test("resolveOrThrow gives nil for a missing registration and the instance for a present one")
    func resolveOrThrow() throws {
        try withFreshContainer { container in
            let factory = Factory<(any OptionalScanner)?>()
            let missing = try factory.resolveOrThrow()
            #expect(missing == nil)
            let scanner = LaserScanner()
            container.register(OptionalScanner.self, instance: scanner)
            let present = try factory.resolveOrThrow()
            #expect(present === scanner)
            #expect(factory() === scanner)
        }
    }

    @Test("a cycle or a throwing factory reads nil (reported), and resolveOrThrow throws it")
    func failuresReadNil() {
        let cycles = Recorder<DIError>()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .circularDependency(let path) = error, path.contains(where: { $0.contains("LoopingScanner") }) {
                cycles.append(error)
            }
        }
        defer { token.cancel() }
        withFreshContainer { container in
            container.register(LoopingScanner.self) {
                _ = try Factory<(any LoopingScanner)?>().resolveOrThrow()
                return LoopingScannerImpl()
            }
            let owner = LoopingOwner()
            #expect(owner.scanner == nil)
            #expect(owner.injected == nil)
            #expect(cycles.all.count == 2)
            #expect(throws: DIError.self) { try Factory<(any LoopingScanner)?>().resolveOrThrow() }

            container.register(LoopingScanner.self) { () throws -> any LoopingScanner in throw ScannerJam() }
            #expect(owner.scanner == nil)
            let error = thrownDIError { try Factory<(any LoopingScanner)?>().resolveOrThrow() }
            guard case .factoryFailed(_, _, let underlying)? = error else {
                Issue.record("expected factoryFailed, got \(String(describing: error))")
                return
            }
            #expect(underlying is ScannerJam)
        }
    }

    @Test("a read with nothing registered reports a miss of the wrapped type, not of the optional")
    func missReported() {
        let misses = Recorder<String>()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .dependencyNotFound(let type, _, _) = error, "\(type)".contains("NeverRegisteredScanner") {
                misses.append(String(reflecting: type))
            }
        }
        defer { token.cancel() }
        withFreshContainer { _ in
            #expect(NeverRegisteredOwner().scanner == nil)
        }
        #expect(misses.all.count == 1)
        #expect(misses.all.allSatisfy { !$0.hasPrefix("Swift.Optional") })
    }

    @Test("register and reset on the optional form act on the wrapped type's registration")
    func registerAndReset() throws {
        try withFreshContainer { container in
            let factory = Factory<(any OptionalScanner)?>()
            let scanner = LaserScanner()
            factory.register { scanner }
            #expect(container.resolve(OptionalScanner.self) === scanner)
            #expect(OptionalScannerOwner().scanner === scanner)
            #expect(factory.reset())
            #expect(container.resolve(OptionalScanner.self) == nil)
            #expect(!factory.reset())

            // A factory that returns nil: optional readers read nil; other resolutions fail.
            factory.register { nil }
            #expect(OptionalScannerOwner().scanner == nil)
            let returnedNil = try factory.resolveOrThrow()
            #expect(returnedNil == nil)
            let error = thrownDIError { try container.resolveOrThrow(OptionalScanner.self) }
            guard case .factoryFailed(_, _, let underlying)? = error else {
                Issue.record("expected factoryFailed, got \(String(describing: error))")
                return
            }
            #expect("\(underlying)".contains("returned nil"))
        }
    }

    @Test("a non-optional @Factory of the same type still stops the program when it is missing")
    func nonOptionalStillTraps() async {
        await #expect(processExitsWith: .failure) {
            Container.withShared(Container()) { _ = Factory<any OptionalScanner>()() }
        }
    }
}
