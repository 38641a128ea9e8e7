import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

private protocol InjectRepository: AnyObject { var id: Int { get } }
private final class InjectRepositoryImpl: InjectRepository, @unchecked Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}
private protocol InjectNeverRegistered {}

private final class InjectOwner {
    @Inject var repository: InjectRepository?
    @Inject("primary") var primary: InjectRepository?
    @Inject var missing: InjectNeverRegistered?
}

/// The documented way to share a class with wrapped properties across threads: the wrapper's
/// storage is never reassigned and is itself thread-safe.
private final class SharedInjectOwner: @unchecked Sendable {
    @Inject var repository: InjectRepository?
}

private struct InjectStructOwner {
    @Inject var repository: InjectRepository?
}

private final class SendableService: Sendable {}

/// A `Sendable` struct may hold `@Inject` of a `Sendable` type.
private struct SendableInjectOwner: Sendable {
    @Inject var service: SendableService?
}

@MainActor
private final class MainActorInjectOwner {
    @Inject var repository: InjectRepository?
    var uses = 0

    func use() -> Int? {
        uses += 1
        return repository?.id
    }
}

@Suite("@Inject", .capturesLog)
struct InjectTests {
    @Test("resolves on first read and keeps the instance, even for a transient registration")
    func keepsFirstInstance() {
        withFreshContainer { container in
            let built = Counter()
            container.register(InjectRepository.self) { InjectRepositoryImpl(id: built.next()) }
            let owner = InjectOwner()
            #expect(built.value == 0, "nothing resolves before the first read")
            let first = owner.repository
            let second = owner.repository
            #expect(first != nil)
            #expect(first === second)
            #expect(built.value == 1)
        }
    }

    @Test("tries again while nil, so a registration made after the owner was created is found")
    func retriesWhileNil() {
        withFreshContainer { container in
            let owner = InjectOwner()
            #expect(owner.repository == nil)
            #expect(owner.repository == nil)
            container.register(InjectRepository.self) { InjectRepositoryImpl(id: 7) }
            #expect(owner.repository?.id == 7)
        }
    }

    @Test("a name selects the named registration")
    func named() {
        withFreshContainer { container in
            container.register(InjectRepository.self) { InjectRepositoryImpl(id: 1) }
            container.register("primary", InjectRepository.self) { InjectRepositoryImpl(id: 2) }
            let owner = InjectOwner()
            #expect(owner.primary?.id == 2)
            #expect(owner.repository?.id == 1)
        }
    }

    @Test("works in a struct held in a `let`: the getter is not mutating; copies share the instance")
    func structOwner() {
        withFreshContainer { container in
            container.register(InjectRepository.self) { InjectRepositoryImpl(id: Int.random(in: 0..<1_000_000)) }
            let owner = InjectStructOwner()
            let copy = owner
            let first = owner.repository
            #expect(first != nil)
            #expect(copy.repository === first)
        }
    }

    @Test("works in a @MainActor class")
    @MainActor
    func mainActorOwner() {
        withFreshContainer { container in
            container.register(InjectRepository.self) { InjectRepositoryImpl(id: 3) }
            let owner = MainActorInjectOwner()
            #expect(owner.use() == 3)
        }
    }

    @Test("works in a Sendable struct and can be read from another task")
    func sendableStruct() async {
        await withFreshContainer { container in
            let service = SendableService()
            container.register(SendableService.self, instance: service)
            let owner = SendableInjectOwner()
            let fromTask = await Task { owner.service }.value
            #expect(fromTask === service)
        }
    }

    @Test("resolves from the container bound to the reading task")
    func readsTaskBoundContainer() {
        let a = Container()
        let b = Container()
        a.register(InjectRepository.self) { InjectRepositoryImpl(id: 1) }
        b.register(InjectRepository.self) { InjectRepositoryImpl(id: 2) }
        let ownerA = InjectOwner()
        let ownerB = InjectOwner()
        Container.withShared(a) { #expect(ownerA.repository?.id == 1) }
        Container.withShared(b) { #expect(ownerB.repository?.id == 2) }
    }

    @Test("racing first reads keep exactly one instance and all threads get it")
    func racingFirstReads() {
        let container = Container()
        let built = Counter()
        container.register(InjectRepository.self) {
            // Widen the window in which several threads are inside the first resolution.
            Thread.sleep(forTimeInterval: 0.001)
            return InjectRepositoryImpl(id: built.next())
        }
        for _ in 0..<20 {
            let owner = SharedInjectOwner()
            let seen = Recorder<ObjectIdentifier>()
            runConcurrently(threads: 8) { _ in
                Container.withShared(container) {
                    if let repository = owner.repository { seen.append(ObjectIdentifier(repository)) }
                }
            }
            #expect(seen.all.count == 8)
            #expect(Set(seen.all).count == 1)
            // Later reads return the kept one.
            let kept = Container.withShared(container) { owner.repository }
            #expect(kept.map(ObjectIdentifier.init) == seen.all.first)
        }
    }

    @Test("a miss is reported to onResolutionError")
    func missIsReported() {
        let heard = Recorder<String>()
        let token = UnifiedDI.onResolutionError { name, _ in
            if name.contains("InjectNeverRegistered") { heard.append(name) }
        }
        defer { token.cancel() }
        withFreshContainer { _ in
            #expect(InjectOwner().missing == nil)
        }
        #expect(heard.all.count == 1)
    }
}
