import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// The Factory multi-module article's shapes: a non-Sendable protocol and an optional key with a nil default.
public protocol AccountLoading {
    func load() -> [String]
}

final class AccountLoader: AccountLoading {
    let accounts: [String]
    init(accounts: [String] = ["checking", "savings"]) { self.accounts = accounts }
    func load() -> [String] { accounts }
}

final class FactoryWidget: @unchecked Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private let singletonDefaults = Counter()
private let transientDefaults = Counter()
private let caughtCycles = Recorder<DIError>()

extension Container {
    // Compiles in Swift 6 mode although AccountLoading is not Sendable.
    public static let accountLoader = Factory<AccountLoading?> { nil }
    static let transientWidget = Factory<FactoryWidget> { FactoryWidget(serial: transientDefaults.next()) }
    static let singletonWidget = Factory(scope: .singleton) { FactoryWidget(serial: singletonDefaults.next()) }
    static let selfReferencing: Factory<FactoryWidget> = Factory { Container.selfReferencing() }
    /// Resolves itself with the throwing API, recording what it caught.
    static let guardedSelfReferencing: Factory<FactoryWidget?> = Factory {
        do throws(DIError) {
            return try Container.guardedSelfReferencing.resolveOrThrow()
        } catch {
            caughtCycles.append(error)
            return nil
        }
    }
    static let scopedWidget = Factory(scope: .request) { FactoryWidget(serial: 0) }
}

private final class TemporaryProcessor: Sendable {
    let id = UUID()
}

private protocol NotRegisteredProcessor {}

private final class ProcessingService {
    // The Advanced Patterns guide: a new instance for each read.
    @Factory private var temporaryProcessor: TemporaryProcessor
    @Factory("fast") var fastProcessor: TemporaryProcessor

    func processor() -> TemporaryProcessor { temporaryProcessor }
}

private struct StructProcessingService {
    @Factory var processor: TemporaryProcessor
}

@MainActor
private final class MainActorProcessingService {
    @Factory var processor: TemporaryProcessor
}

/// The Factory multi-module article's Resolver-style view model.
private final class ResolverStyleViewModel {
    @Injected var loader: AccountLoading
    @Injected("backup") var backupLoader: AccountLoading
    var accounts: [String] = []

    func load() { accounts = loader.load() }
}

private final class BrokenService {
    @Factory var processor: NotRegisteredProcessor
}

@Suite("Factory keys", .capturesLog)
struct FactoryKeyTests {
    @Test("the default applies until a factory is registered; register replaces it; reset restores it")
    func registerAndReset() {
        withFreshContainer { container in
            #expect(Container.accountLoader() == nil)
            Container.accountLoader.register { AccountLoader() }
            #expect(Container.accountLoader()?.load() == ["checking", "savings"])
            Container.accountLoader.register { AccountLoader(accounts: ["brokerage"]) }
            #expect(Container.accountLoader()?.load() == ["brokerage"])
            #expect(Container.accountLoader.reset())
            #expect(Container.accountLoader() == nil)
            #expect(!Container.accountLoader.reset())
        }
    }

    @Test("a container's reset drops what was registered on the key")
    func containerResetDropsOverrides() {
        withFreshContainer { container in
            Container.accountLoader.register { AccountLoader() }
            #expect(Container.accountLoader() != nil)
            container.reset()
            #expect(Container.accountLoader() == nil)
        }
    }

    @Test("registrations are per container: another container keeps the default")
    func perContainer() {
        let a = Container()
        let b = Container()
        Container.accountLoader.register(in: a) { AccountLoader() }
        #expect(Container.withShared(a) { Container.accountLoader() } != nil)
        #expect(Container.withShared(b) { Container.accountLoader() } == nil)
        #expect(Container.accountLoader.resolve(in: a) != nil)
        #expect(Container.accountLoader.resolve(in: b) == nil)
    }

    @Test("a child container sees its parent's registration and can shadow it")
    func parentAndChild() {
        let parent = Container()
        let child = Container(parent: parent)
        Container.accountLoader.register(in: parent) { AccountLoader(accounts: ["parent"]) }
        #expect(Container.accountLoader.resolve(in: child)?.load() == ["parent"])
        Container.accountLoader.register(in: child) { AccountLoader(accounts: ["child"]) }
        #expect(Container.accountLoader.resolve(in: child)?.load() == ["child"])
        #expect(Container.accountLoader.resolve(in: parent)?.load() == ["parent"])
    }

    @Test("a transient default builds a new instance per call")
    func transientDefault() {
        withFreshContainer { _ in
            #expect(Container.transientWidget() !== Container.transientWidget())
        }
    }

    @Test("a singleton default is built once per root container, shared with its children")
    func singletonDefault() {
        let a = Container()
        let b = Container()
        let child = Container(parent: a)
        let fromA = Container.singletonWidget.resolve(in: a)
        #expect(Container.singletonWidget.resolve(in: a) === fromA)
        #expect(Container.singletonWidget.resolve(in: child) === fromA)
        #expect(Container.singletonWidget.resolve(in: b) !== fromA)
        a.reset()
        #expect(Container.singletonWidget.resolve(in: a) !== fromA, "reset releases the cached default")
    }

    @Test("a singleton default raced by many threads is built once")
    func singletonDefaultRace() {
        for _ in 0..<20 {
            let container = Container()
            let seen = Recorder<ObjectIdentifier>()
            runConcurrently(threads: 8) { _ in
                seen.append(ObjectIdentifier(Container.singletonWidget.resolve(in: container)))
            }
            #expect(Set(seen.all).count == 1)
        }
    }

    @Test("a registration made with a scope uses it")
    func scopedRegistration() {
        withFreshContainer { _ in
            Container.transientWidget.register(scope: .singleton) { FactoryWidget(serial: -1) }
            let first = Container.transientWidget()
            #expect(first.serial == -1)
            #expect(Container.transientWidget() === first)
        }
    }

    @Test("registering while other threads resolve is safe, and later resolutions see the registration")
    func concurrentRegisterAndResolve() {
        let container = Container()
        let results = Recorder<Bool>()
        runConcurrently(threads: 8) { index in
            if index == 0 {
                Container.accountLoader.register(in: container) { AccountLoader() }
            } else {
                for _ in 0..<200 { results.append(Container.accountLoader.resolve(in: container) != nil) }
            }
        }
        #expect(results.all.count == 7 * 200)
        #expect(Container.accountLoader.resolve(in: container) != nil)
    }

    @Test("a scoped default never displaces a registration, and is no duplicate under .reject")
    func defaultIsNotADuplicate() {
        let container = Container()
        container.duplicatePolicy = .reject
        let heard = Recorder<DIError>()
        let token = UnifiedDI.onResolutionError { _, error in
            if case .duplicateRegistration = error { heard.append(error) }
        }
        defer { token.cancel() }
        let byDefault = Container.singletonWidget.resolve(in: container)
        Container.singletonWidget.register(in: container) { FactoryWidget(serial: 99) }
        #expect(Container.singletonWidget.resolve(in: container).serial == 99)
        #expect(byDefault.serial != 99)
        #expect(heard.all.isEmpty)
    }

    @Test("each key gets its own odd registry ids")
    func keyIDs() {
        let keys = [Container.transientWidget.keyID, Container.singletonWidget.keyID, Container.accountLoader.keyID]
        #expect(Set(keys).count == 3)
        #expect(keys.allSatisfy { $0 & 1 == 1 })
        #expect(keys.allSatisfy { ($0 | 2) & 1 == 1 && $0 | 2 != $0 })
    }

    @Test("a key whose factory resolves itself gets a cycle error from resolveOrThrow")
    func cycleThrows() {
        withFreshContainer { _ in
            let before = caughtCycles.all.count
            #expect(Container.guardedSelfReferencing() == nil)
            let caught = caughtCycles.all.dropFirst(before)
            #expect(caught.count == 1)
            guard case .circularDependency(let path)? = caught.first else {
                Issue.record("expected a cycle, got \(caught)")
                return
            }
            #expect(path.count == 2)
        }
    }

    @Test("a key whose factory calls itself stops the program with the cycle")
    func cycleTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Container.selfReferencing.resolve(in: Container())
        }
    }

    @Test("resolving a key in an ended scope instance throws scopeEnded")
    func endedScope() throws {
        let container = Container()
        let request = container.beginScope(.request)
        request.end()
        _ = container.withScope(request) {
            #expect(throws: DIError.self) { try Container.scopedWidget.resolveOrThrow(in: container) }
        }
    }

    @Test("AccountLoading keys work with @Injected in a view model")
    func injectedViewModel() {
        final class ViewModel {
            @Injected(Container.accountLoader) var loader
            var accounts: [String] = []

            func load() {
                guard let loader else { return }
                accounts = loader.load()
            }
        }
        withFreshContainer { _ in
            let viewModel = ViewModel()
            viewModel.load()
            #expect(viewModel.accounts.isEmpty)
            // Registered after the view model was created: still found.
            Container.accountLoader.register { AccountLoader() }
            viewModel.load()
            #expect(viewModel.accounts == ["checking", "savings"])
        }
    }
}

@Suite("@Factory property wrapper", .capturesLog)
struct FactoryWrapperTests {
    @Test("every read builds a new instance from a transient registration")
    func newInstanceEachRead() {
        withFreshContainer { container in
            container.register(TemporaryProcessor.self) { TemporaryProcessor() }
            let service = ProcessingService()
            #expect(service.processor() !== service.processor())
        }
    }

    @Test("a singleton registration gives the same instance; a name selects a named registration")
    func singletonAndNamed() {
        withFreshContainer { container in
            container.register(TemporaryProcessor.self, scope: .singleton) { TemporaryProcessor() }
            let fast = TemporaryProcessor()
            container.register("fast", TemporaryProcessor.self, instance: fast)
            let service = ProcessingService()
            #expect(service.processor() === service.processor())
            #expect(service.fastProcessor === fast)
        }
    }

    @Test("works in a struct held in a `let` and in a @MainActor class")
    @MainActor
    func structAndMainActor() {
        withFreshContainer { container in
            container.register(TemporaryProcessor.self) { TemporaryProcessor() }
            let service = StructProcessingService()
            #expect(service.processor !== service.processor)
            let mainActorService = MainActorProcessingService()
            #expect(mainActorService.processor !== mainActorService.processor)
        }
    }

    @Test("register on the wrapper form registers the type itself")
    func registerTypeForm() {
        withFreshContainer { container in
            let factory = Factory<TemporaryProcessor>()
            let instance = TemporaryProcessor()
            factory.register { instance }
            #expect(container.resolve(TemporaryProcessor.self) === instance)
            #expect(factory() === instance)
        }
    }

    @Test("resolveOrThrow reports a missing registration as an error")
    func missingThrows() {
        _ = withFreshContainer { _ in
            #expect(throws: DIError.self) { try Factory<NotRegisteredProcessor>().resolveOrThrow() }
        }
    }

    @Test("Resolver-style @Injected resolves the registered type on every read")
    func resolverStyleInjected() {
        withFreshContainer { container in
            let viewModel = ResolverStyleViewModel()
            container.register(AccountLoading.self) { AccountLoader(accounts: ["a"]) }
            container.register("backup", AccountLoading.self) { AccountLoader(accounts: ["b"]) }
            viewModel.load()
            #expect(viewModel.accounts == ["a"])
            #expect(viewModel.backupLoader.load() == ["b"])
            container.register(AccountLoading.self) { AccountLoader(accounts: ["replaced"]) }
            viewModel.load()
            #expect(viewModel.accounts == ["replaced"])
        }
    }

    @Test("Resolver-style @Injected stops the program when nothing is registered")
    func resolverStyleInjectedTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.withShared(Container()) { ResolverStyleViewModel().load() }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@Injected could not provide"))
        #expect(stderr.contains("AccountLoading"))
        #expect(stderr.contains("ResolverStyleViewModel"))
    }

    @Test("reading an unregistered @Factory stops the program with a precise message")
    func missingTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.withShared(Container()) { _ = BrokenService().processor }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("@Factory could not provide"))
        #expect(stderr.contains("NotRegisteredProcessor"))
        #expect(stderr.contains("BrokenService"))
        #expect(stderr.contains("FactoryTests.swift"))
    }
}
