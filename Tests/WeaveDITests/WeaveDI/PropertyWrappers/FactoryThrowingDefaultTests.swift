import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// A Factory key's default may throw: `resolveOrThrow()` throws what it threw (as a DIError), and
// only `callAsFunction()` stops the program, with a message naming the key and the inner failure.

final class KeyCredentials: Sendable {}
/// Used by one test only, so its hook hears no other test's misses.
final class SingletonKeyCredentials: Sendable {}
final class KeyGateway: Sendable {
    let credentials: KeyCredentials
    init(credentials: KeyCredentials) { self.credentials = credentials }
}
/// Registered by no test.
protocol KeyMissingDependency {}
struct KeyDefaultFailure: Error, CustomStringConvertible {
    var description: String { "the vault is locked" }
}

private let gatewayBuilds = Counter()
private let singletonGatewayBuilds = Counter()

extension Container {
    /// Resolves what it needs with the throwing API.
    static let gateway = Factory<KeyGateway> {
        _ = gatewayBuilds.next()
        return KeyGateway(credentials: try Container.shared.resolveOrThrow(KeyCredentials.self))
    }
    /// Built once per root container, from credentials only `singletonFailureRunsOnce` registers.
    static let singletonGateway = Factory(scope: .singleton) {
        _ = singletonGatewayBuilds.next()
        _ = try Container.shared.resolveOrThrow(SingletonKeyCredentials.self)
        return KeyGateway(credentials: KeyCredentials())
    }
    /// A singleton that no test makes resolvable, for the race test.
    static let racingGateway = Factory(scope: .singleton) {
        KeyGateway(credentials: try Container.shared.resolveOrThrow(KeyCredentials.self))
    }
    /// Needs a type nobody registers.
    static let needsMissing = Factory<KeyGateway> {
        _ = try Container.shared.resolveOrThrow(KeyMissingDependency.self)
        return KeyGateway(credentials: KeyCredentials())
    }
    /// Resolves itself.
    static let throwingSelfReference: Factory<KeyGateway> = Factory {
        try Container.throwingSelfReference.resolveOrThrow()
    }
    /// Throws an error of its own.
    static let lockedVault = Factory<KeyCredentials> { throw KeyDefaultFailure() }
    /// Seed shapes next to throwing keys: a non-throwing closure still picks the non-throwing initializer.
    static let plainOptional = Factory<KeyGateway?> { nil }
    static let plainSingleton = Factory(scope: .singleton) { KeyCredentials() }
}

private final class VaultOwner {
    @Injected(Container.lockedVault) var credentials
}

@Suite("Factory keys with a throwing default", .capturesLog)
struct FactoryThrowingDefaultTests {
    @Test("resolveOrThrow throws a missing dependency of the default as dependencyNotFound of that type")
    func missingDependencyThrows() {
        withFreshContainer { _ in
            let error = thrownDIError { try Container.needsMissing.resolveOrThrow() }
            guard case .dependencyNotFound(let type, .none, _)? = error else {
                Issue.record("expected dependencyNotFound, got \(String(describing: error))")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(KeyMissingDependency.self))
        }
    }

    @Test("resolveOrThrow throws a cycle through the key as circularDependency with its path")
    func cycleThrows() {
        withFreshContainer { _ in
            let error = thrownDIError { try Container.throwingSelfReference.resolveOrThrow() }
            guard case .circularDependency(let path)? = error else {
                Issue.record("expected circularDependency, got \(String(describing: error))")
                return
            }
            #expect(path == ["WeaveDITests.KeyGateway", "WeaveDITests.KeyGateway"])
        }
    }

    @Test("resolveOrThrow wraps another error of the default in factoryFailed naming the key's type")
    func otherErrorWrapped() {
        withFreshContainer { _ in
            let error = thrownDIError { try Container.lockedVault.resolveOrThrow() }
            guard case .factoryFailed(let type, .none, let underlying)? = error else {
                Issue.record("expected factoryFailed, got \(String(describing: error))")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier(KeyCredentials.self))
            #expect(underlying is KeyDefaultFailure)
            #expect(error?.description.contains("the vault is locked") == true)
        }
    }

    @Test("once the dependency is registered the default succeeds; a registration still replaces it")
    func succeedsOnceRegistered() throws {
        try withFreshContainer { container in
            #expect(throws: DIError.self) { try Container.gateway.resolveOrThrow() }
            let credentials = KeyCredentials()
            container.register(KeyCredentials.self, instance: credentials)
            let gateway = try Container.gateway.resolveOrThrow()
            #expect(gateway.credentials === credentials)
            #expect(Container.gateway().credentials === credentials)
            let replacement = KeyGateway(credentials: KeyCredentials())
            Container.gateway.register { replacement }
            let before = gatewayBuilds.value
            #expect(Container.gateway() === replacement)
            #expect(gatewayBuilds.value == before, "a registration replaces the throwing default")
        }
    }

    @Test("a failing singleton default is not cached, runs once per resolution, and is reported once")
    func singletonFailureRunsOnce() throws {
        let heard = Recorder<DIError>()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .dependencyNotFound(let type, _, _) = error, type == SingletonKeyCredentials.self {
                heard.append(error)
            }
        }
        defer { token.cancel() }
        let container = Container()
        try Container.withShared(container) {
            let builds = singletonGatewayBuilds.value
            let reports = heard.all.count
            for _ in 0..<3 {
                #expect(throws: DIError.self) { try Container.singletonGateway.resolveOrThrow() }
            }
            #expect(singletonGatewayBuilds.value - builds == 3, "the failing default runs once per resolution")
            #expect(heard.all.count - reports == 3, "each failure is reported once")
            container.register(SingletonKeyCredentials.self) { SingletonKeyCredentials() }
            let gateway = try Container.singletonGateway.resolveOrThrow()
            #expect(Container.singletonGateway() === gateway)
            #expect(singletonGatewayBuilds.value - builds == 4, "built once when it succeeds")
        }
    }

    @Test("threads racing on a failing singleton default all get its inner miss, never the key's own")
    func failingSingletonRace() {
        for _ in 0..<20 {
            let container = Container()
            let errors = Recorder<DIError?>()
            runConcurrently(threads: 8) { _ in
                errors.append(
                    Container.withShared(container) {
                        thrownDIError { try Container.racingGateway.resolveOrThrow() }
                    })
            }
            #expect(errors.all.count == 8)
            for error in errors.all {
                guard case .dependencyNotFound(let type, _, _)? = error else {
                    Issue.record("expected dependencyNotFound, got \(String(describing: error))")
                    continue
                }
                #expect(
                    ObjectIdentifier(type) == ObjectIdentifier(KeyCredentials.self), "got \(String(describing: error))")
            }
        }
    }

    @Test("seed keys with non-throwing closures keep working next to throwing ones")
    func seedShapes() {
        withFreshContainer { _ in
            #expect(Container.plainOptional() == nil)
            #expect(Container.plainSingleton() === Container.plainSingleton())
        }
    }

    @Test("callAsFunction stops the program, naming the key's type and the missing dependency")
    func missingDependencyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.needsMissing()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains(
                "The Factory<WeaveDITests.KeyGateway> key declared at WeaveDITests/FactoryThrowingDefaultTests.swift:"))
        #expect(stderr.contains("No registration for WeaveDITests.KeyMissingDependency."))
        #expect(stderr.contains("resolveOrThrow()"))
        #expect(!stderr.contains("declare the property"), "a key is no property: no property advice")
    }

    @Test("callAsFunction stops the program with the cycle's path")
    func cycleTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.throwingSelfReference()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("The Factory<WeaveDITests.KeyGateway> key declared at"))
        #expect(stderr.contains("Circular dependency: WeaveDITests.KeyGateway -> WeaveDITests.KeyGateway."))
    }

    @Test("@Injected with a throwing key stops the program with the key's message")
    func injectedKeyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = VaultOwner().credentials
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("The Factory<WeaveDITests.KeyCredentials> key declared at"))
        #expect(stderr.contains("The factory for WeaveDITests.KeyCredentials threw: the vault is locked."))
    }
}

/// The `DIError` `body` throws, or `nil` when it returns (or throws something else).
func thrownDIError<T>(_ body: () throws -> T) -> DIError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? DIError
    }
}
