import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// The Factory multi-module article's wiring: module A declares an optional key, the app fills it in.
public protocol AccountLoading {
    func load() -> [String]
}

final class AccountLoader: AccountLoading {
    func load() -> [String] { ["checking", "savings"] }
}

protocol AuditService: AnyObject {}
final class AuditServiceImpl: AuditService {}

final class ScratchPad {
    let id = UUID()
}

extension Container {
    public static let accountLoader = Factory<AccountLoading?> { nil }
}

/// Which container each `registerAllServices()` run prepared (by `Container.shared` during the run).
///
/// SwiftPM links every test target of the package into one test binary, so the conformance below
/// applies to the containers of all tests. It registers only into containers these tests made
/// (``owned()``); for the others a run is recorded and does nothing, so no other test sees a change.
final class RunLog: @unchecked Sendable {
    private let lock = NSLock()
    /// Weak, so other tests' containers are freed as usual; a freed container's entries become
    /// nil and can never match a later container at the same address.
    private struct WeakRun { weak var container: Container? }
    private var runs: [WeakRun] = []
    private var ownedContainers: [Container] = []
    /// Run once, in the middle of the container's next run (after the loader is registered).
    private var midRunActions: [ObjectIdentifier: (Container) -> Void] = [:]

    func duringNextRun(of container: Container, _ action: @escaping (Container) -> Void) {
        lock.withLock { midRunActions[ObjectIdentifier(container)] = action }
    }

    func takeMidRunAction(for container: Container) -> ((Container) -> Void)? {
        lock.withLock { midRunActions.removeValue(forKey: ObjectIdentifier(container)) }
    }

    func record(_ container: Container) { lock.withLock { runs.append(WeakRun(container: container)) } }

    func count(for container: Container) -> Int {
        lock.withLock { runs.filter { $0.container === container }.count }
    }

    func owns(_ container: Container) -> Bool {
        if RunLog.ownsEveryContainer { return true }
        return lock.withLock { ownedContainers.contains { $0 === container } }
    }

    /// Set by the `.ownedAutoRegistration` trait around a test whose containers the test tools
    /// make (the `.container` trait's, `WeaveDITestCase`'s): the run fills those in too.
    @TaskLocal static var ownsEveryContainer = false

    /// A new container that registerAllServices fills in.
    func owned(parent: Container? = nil) -> Container {
        let container = Container(parent: parent)
        lock.withLock { ownedContainers.append(container) }
        return container
    }
}

let runLog = RunLog()

// Apps outside this package write `extension Container: @retroactive AutoRegistering`.
extension Container: AutoRegistering {
    public static func registerAllServices() {
        let container = Container.shared
        runLog.record(container)
        guard runLog.owns(container) else { return }
        // Widens the window in which racing first resolutions must wait for this run.
        Thread.sleep(forTimeInterval: 0.002)
        accountLoader.register { AccountLoader() }
        runLog.takeMidRunAction(for: container)?(container)
        container.register(AuditService.self) { AuditServiceImpl() }
        container.register(ScratchPad.self) { ScratchPad() }
    }
}

/// The Factory multi-module article's view model: reads the loader in its initializer, i.e. during a property initializer
/// of whatever holds it.
final class AccountsViewModel {
    @Injected(Container.accountLoader) var loader
    private(set) var initialAccounts: [String] = []

    init() {
        initialAccounts = loader?.load() ?? []
    }
}

/// The Factory multi-module article's app: the view model is created by a property initializer, before any setup code.
struct AccountingApp {
    let viewModel = AccountsViewModel()
}

final class InjectingOwner {
    @Inject var audit: AuditService?
}

final class RequiringOwner {
    @RequiredInject var audit: AuditService
}

final class FactoryOwner {
    @Factory var pad: ScratchPad
}

@Suite("AutoRegistering", .capturesLog)
struct AutoRegisteringTests {
    @Test("a container resolution runs registerAllServices once, first, with the container bound")
    func containerResolution() {
        let container = runLog.owned()
        #expect(runLog.count(for: container) == 0, "nothing runs before the first resolution")
        #expect(container.resolve(AuditService.self) != nil)
        #expect(container.resolve(AuditService.self) != nil)
        #expect(throws: Never.self) { _ = try container.resolveOrThrow(ScratchPad.self) }
        #expect(runLog.count(for: container) == 1)
    }

    @Test("registration alone does not run it")
    func registrationDoesNotRun() {
        let container = runLog.owned()
        container.register(ScratchPad.self) { ScratchPad() }
        _ = container.isRegistered(ScratchPad.self)
        #expect(runLog.count(for: container) == 0)
    }

    @Test("a type-erased resolution runs it")
    func erasedResolution() {
        let container = runLog.owned()
        let types: [Any.Type] = [AuditService.self]
        #expect(container.resolve(types[0]) != nil)
        #expect(runLog.count(for: container) == 1)
    }

    @Test("a UnifiedDI resolution runs it")
    func unifiedDI() {
        let container = runLog.owned()
        Container.withShared(container) {
            #expect(UnifiedDI.resolve(AuditService.self) != nil)
        }
        #expect(runLog.count(for: container) == 1)
    }

    @Test("@Inject, @RequiredInject and @Factory run it")
    func propertyWrappers() {
        for read in [
            { _ = InjectingOwner().audit },
            { _ = RequiringOwner().audit },
            { _ = FactoryOwner().pad },
        ] as [() -> Void] {
            let container = runLog.owned()
            Container.withShared(container) { read() }
            #expect(runLog.count(for: container) == 1)
        }
    }

    @Test("a Factory key, directly or through @Injected, runs it")
    func factoryKeys() {
        let direct = runLog.owned()
        #expect(Container.withShared(direct) { Container.accountLoader() } != nil)
        #expect(runLog.count(for: direct) == 1)

        let throughInjected = runLog.owned()
        let viewModel = AccountsViewModel.self
        #expect(Container.withShared(throughInjected) { viewModel.init().loader } != nil)
        #expect(runLog.count(for: throughInjected) == 1)
    }

    @Test("the first resolution may come from a property initializer that runs before any setup code")
    func propertyInitializerFirst() {
        let container = runLog.owned()
        let app = Container.withShared(container) { AccountingApp() }
        #expect(app.viewModel.initialAccounts == ["checking", "savings"])
        #expect(runLog.count(for: container) == 1)
    }

    @Test("many threads resolving at once: it runs once and every thread sees its registrations")
    func concurrentFirstResolutions() {
        for _ in 0..<10 {
            let container = runLog.owned()
            let found = Counter()
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for index in 0..<8 {
                group.enter()
                loggingThread {
                    start.wait()
                    Container.withShared(container) {
                        let ok =
                            index.isMultiple(of: 2)
                            ? Container.accountLoader() != nil
                            : container.resolve(AuditService.self) != nil
                        if ok { found.increment() }
                    }
                    group.leave()
                }.start()
            }
            for _ in 0..<8 { start.signal() }
            group.wait()
            #expect(found.value == 8)
            #expect(runLog.count(for: container) == 1)
        }
    }

    @Test("after a reset it runs again before the next resolution")
    func afterReset() {
        let container = runLog.owned()
        #expect(Container.accountLoader.resolve(in: container) != nil)
        #expect(runLog.count(for: container) == 1)
        container.reset()
        #expect(runLog.count(for: container) == 1, "reset itself does not run it")
        #expect(Container.accountLoader.resolve(in: container) != nil)
        #expect(runLog.count(for: container) == 2)
        #expect(container.resolve(AuditService.self) != nil)
        #expect(runLog.count(for: container) == 2)
    }

    @Test("a reset while registerAllServices runs: it runs again, and nothing it registers is lost")
    func resetDuringTheRun() {
        let container = runLog.owned()
        runLog.duringNextRun(of: container) { container in
            // Another thread resets the container in the middle of the run: what the run
            // registered so far (the loader) is cleared.
            let done = DispatchSemaphore(value: 0)
            loggingThread {
                container.reset()
                done.signal()
            }.start()
            done.wait()
        }
        #expect(container.resolve(AuditService.self) != nil)
        #expect(Container.accountLoader.resolve(in: container) != nil, "the loader, cleared by the reset, is back")
        #expect(runLog.count(for: container) == 2)
        #expect(container.resolve(ScratchPad.self) != nil)
        #expect(runLog.count(for: container) == 2, "done for good after the second run")
    }

    @Test("the run and a default computed on another thread waiting for each other: reported, no hang")
    func runAndDefaultWaitingForEachOther() {
        let container = runLog.owned()
        let defaults = InjectedDefaults(context: .live)
        RunWaitingKey.container = container
        let runStarted = DispatchSemaphore(value: 0)
        runLog.duringNextRun(of: container) { _ in
            runStarted.signal()
            _ = RunWaitingKey.computing.wait(timeout: .now() + 10)
            // The default is being computed by the other thread, which waits for this run.
            _ = defaults.value(for: RunWaitingKey.self)
        }
        let finished = DispatchGroup()
        finished.enter()
        loggingThread {
            _ = container.resolve(ScratchPad.self)
            finished.leave()
        }.start()
        #expect(runStarted.wait(timeout: .now() + 10) == .success)
        finished.enter()
        loggingThread {
            _ = defaults.value(for: RunWaitingKey.self)
            finished.leave()
        }.start()
        #expect(finished.wait(timeout: .now() + 10) == .success, "both threads finish")
        #expect(container.resolve(AuditService.self) != nil)
    }

    @Test("a child's first resolution prepares the root, once")
    func childContainer() {
        let root = runLog.owned()
        let child = Container(parent: root)
        #expect(child.resolve(AuditService.self) != nil)
        #expect(root.resolve(AuditService.self) != nil)
        #expect(runLog.count(for: root) == 1)
        #expect(runLog.count(for: child) == 0)
    }

    @Test("the process-wide container is prepared before its first resolution too")
    func processWide() {
        // Other tests in the binary may have resolved from it first (or reset it), so only
        // "it ran" is certain here; the tests above pin "exactly once".
        _ = UnifiedDI.resolve(ScratchPad.self)
        #expect(runLog.count(for: Container.shared) >= 1)
    }
}

/// A thread that logs into the starting test's capture (`.capturesLog`).
func loggingThread(_ body: @escaping @Sendable () -> Void) -> Thread {
    let capture = LogCapture.current
    return Thread { withCurrentLogCapture(capture, body) }
}

/// A default that resolves from a container whose auto-registration may be running.
enum RunWaitingKey: InjectedKey {
    nonisolated(unsafe) static var container: Container?
    static let computing = DispatchSemaphore(value: 0)
    static var liveValue: Bool {
        computing.signal()
        return container?.resolve(AuditService.self) != nil
    }
}
