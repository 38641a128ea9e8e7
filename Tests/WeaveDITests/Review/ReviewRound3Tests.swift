import Foundation
import Testing
import WeaveDI
import WeaveDIDiagnostics
import WeaveDITestSupport

@testable import WeaveDICore

// Review round 3: the promises of the optional autowired parameters, the new context forms and
// the synchronous cycle hand-off, written as a new user would, in the shapes of SHAPES.md.

private protocol R3Logger: Sendable { var tag: String { get } }
private final class R3LoggerImpl: R3Logger {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}
private final class R3Service: Sendable {
    let logger: (any R3Logger)?
    init(logger: (any R3Logger)?) { self.logger = logger }
}
private final class R3Pair: Sendable {
    let first: (any R3Logger)?
    let second: (any R3Logger)?
    init(first: (any R3Logger)?, second: (any R3Logger)?) {
        self.first = first
        self.second = second
    }
}
private struct R3Boom: Error {}
private protocol R3OptSink: Sendable {}
private protocol R3ReqSink: Sendable {}
private protocol R3Plugin: Sendable { var id: String { get } }
private struct R3PluginImpl: R3Plugin { let id: String }
private protocol R3Client: Sendable { var id: String { get } }
private struct R3ClientImpl: R3Client { let id: String }
private final class R3A: Sendable {}
private final class R3B: Sendable {}
private let r3NameA = ResolutionFrame.displayName(R3A.self, nil)
// Each test its own types: waiters are counted by the job's name, across containers.
private final class R3TA: Sendable {}
private final class R3TB: Sendable {}
private let r3NameTA = ResolutionFrame.displayName(R3TA.self, nil)

@MainActor
private final class R3Screen {
    let logger: (any R3Logger)?
    init(logger: (any R3Logger)?) { self.logger = logger }
}

private func r3Error(_ body: () throws -> Any) -> DIError? {
    do {
        _ = try body()
        return nil
    } catch { return error as? DIError }
}

private func r3Wait(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date() + seconds
    while !condition() {
        if Date() > deadline { return false }
        usleep(200)
    }
    return true
}

// Serialized: its synchronous tests block the thread they run on (Swift Testing runs them on the
// cooperative pool, two threads here); several at once starved other suites' async tests.
@Suite("Review round 3", .serialized, .capturesLog)
struct ReviewRound3Tests {
    // MARK: 1. Optional autowired parameters

    @Test("optional: only a named registration of Logger is 'not registered' (parameters resolve unnamed)")
    func namedOnlyIsNil() throws {
        let container = Container()
        container.register("audit", R3Logger.self) { R3LoggerImpl("named") }
        container.register(R3Service.self, initializer: R3Service.init(logger:))
        #expect(try container.resolveOrThrow(R3Service.self).logger == nil)
    }

    @Test("optional: contributions of Logger are not a registration of Logger")
    func contributionsAreNotARegistration() throws {
        let container = Container()
        container.register(into: R3Logger.self) { R3LoggerImpl("contribution") }
        container.register(R3Service.self, initializer: R3Service.init(logger:))
        #expect(try container.resolveOrThrow(R3Service.self).logger == nil)
        #expect(container.validate().absentOptionalDependencies.count == 1)
    }

    @Test("optional: Logger registered with arguments only is a failure, not nil")
    func argumentOnlyRegistrationFails() {
        let container = Container()
        container.register(R3Logger.self) { (tag: String) in R3LoggerImpl(tag) }
        container.register(R3Service.self, initializer: R3Service.init(logger:))
        guard case .argumentMismatch = r3Error({ try container.resolveOrThrow(R3Service.self) }) else {
            Issue.record("expected argumentMismatch")
            return
        }
    }

    @Test("optional: Logger registered async only, resolved by a synchronous initializer: a failure naming Logger")
    func asyncOnlyRegistrationFailsSynchronously() throws {
        let container = Container()
        container.registerAsync(R3Logger.self) { R3LoggerImpl("async") }
        container.register(R3Service.self, initializer: R3Service.init(logger:))
        let error = r3Error { try container.resolveOrThrow(R3Service.self) }
        #expect(error != nil, "an async-only Logger must not be silently nil")
        #expect(error.map { "\($0)" }?.contains("R3Logger") == true, "\(String(describing: error))")
    }

    @Test("optional: two optional parameters of one type share a singleton; threads racing get one instance")
    func racingThreadsShareTheSingletonParameter() async throws {
        let container = Container()
        let builds = Counter()
        container.register(R3Logger.self, scope: .singleton) {
            builds.increment()
            usleep(1_000)
            return R3LoggerImpl("one")
        }
        container.register(R3Pair.self, initializer: R3Pair.init(first:second:))
        let pairs = try await withThrowingTaskGroup(of: R3Pair.self) { group in
            for _ in 0..<16 { group.addTask { try container.resolveOrThrow(R3Pair.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(builds.value == 1)
        let ids = Set(pairs.flatMap { [$0.first, $0.second] }.map { ObjectIdentifier($0! as AnyObject) })
        #expect(ids.count == 1)
    }

    @Test("optional: async let and a child container's override")
    func asyncLetThroughChild() async throws {
        let root = Container()
        root.registerAsync(R3Service.self, initializer: R3Service.init(logger:))
        let child = Container(parent: root)
        child.registerAsync(R3Logger.self) { R3LoggerImpl("child") }
        async let fromChild = child.resolveAsync(R3Service.self)
        async let fromRoot = root.resolveAsync(R3Service.self)
        let (c, r) = try await (fromChild, fromRoot)
        #expect(c.logger?.tag == "child")
        #expect(r.logger == nil)
    }

    @Test("optional: a @MainActor caller resolving a main-actor initializer with resolveAsync")
    @MainActor
    func mainActorCaller() async throws {
        let container = Container()
        container.registerAsync(R3Screen.self, initializer: R3Screen.init(logger:))
        container.register(R3Logger.self) { R3LoggerImpl("main") }
        let screen = try await container.resolveAsync(R3Screen.self)
        #expect(screen.logger?.tag == "main")
    }

    @Test("optional: the failure is reported to onResolutionError as often as for a required parameter")
    func hookCountMatchesRequired() throws {
        final class R3OptionalHolder: Sendable { init(sink: (any R3OptSink)?) {} }
        final class R3RequiredHolder: Sendable { init(sink: any R3ReqSink) {} }
        let container = Container()
        container.register(R3OptSink.self) { () throws -> any R3OptSink in throw R3Boom() }
        container.register(R3ReqSink.self) { () throws -> any R3ReqSink in throw R3Boom() }
        container.register(R3OptionalHolder.self, initializer: R3OptionalHolder.init(sink:))
        container.register(R3RequiredHolder.self, initializer: R3RequiredHolder.init(sink:))
        let heard = Recorder<String>()
        let token = UnifiedDI.onResolutionError { type, error in heard.append("\(type)|\(error)") }
        _ = try? container.resolveOrThrow(R3OptionalHolder.self)
        _ = try? container.resolveOrThrow(R3RequiredHolder.self)
        token.cancel()
        let optional = heard.all.filter { $0.contains("R3OptSink") }
        let required = heard.all.filter { $0.contains("R3ReqSink") }
        #expect(optional.count == required.count, "optional: \(optional)\nrequired: \(required)")
    }

    /// Registers and unregisters `R3Logger` on a thread of its own until the returned closure is
    /// called (which joins it); returns once the first registration is made.
    private static func churnLogger(in container: Container) -> @Sendable () -> Void {
        let stop = LockedValue(false)
        let rounds = Counter()
        let done = Counter()
        Thread {
            while !stop.value {
                let handle = container.register(R3Logger.self) { R3LoggerImpl("x") }
                rounds.increment()
                handle.unregister()
            }
            done.increment()
        }.start()
        _ = r3Wait { rounds.value > 0 }
        return {
            stop.mutate { $0 = true }
            _ = r3Wait { done.value == 1 }
        }
    }

    @Test("optional: while another thread registers and unregisters Logger, the parameter is it or nil, never an error")
    func unregisterRaceSync() throws {
        let container = Container()
        container.register(R3Service.self, initializer: R3Service.init(logger:))
        let stop = Self.churnLogger(in: container)
        var failures: [String] = []
        for _ in 0..<50_000 {
            do { _ = try container.resolveOrThrow(R3Service.self) } catch { failures.append("\(error)") }
        }
        stop()
        #expect(failures.count == 0, "\(failures.count) failures, e.g. \(failures.first ?? "")")
    }

    /// The async path did not catch the unregistration between its check and its resolution
    /// (the synchronous path did): `dependencyNotFound` for the optional parameter's type.
    @Test("optional: the same race through resolveAsync is the logger or nil, never an error")
    func unregisterRaceAsync() async throws {
        let container = Container()
        container.registerAsync(R3Service.self, initializer: R3Service.init(logger:))
        let stop = Self.churnLogger(in: container)
        var failures: [String] = []
        for _ in 0..<50_000 {
            do { _ = try await container.resolveAsync(R3Service.self) } catch { failures.append("\(error)") }
        }
        stop()
        #expect(failures.count == 0, "\(failures.count) failures, e.g. \(failures.first ?? "")")
    }

    @Test(
        "optional: reset() and re-registration on another thread: the service is missing or built, never a Logger failure"
    )
    func resetRace() async throws {
        let container = Container()
        let setUp: @Sendable () -> Void = {
            container.register(R3Service.self, initializer: R3Service.init(logger:))
            container.register(R3Logger.self, scope: .singleton) { R3LoggerImpl("s") }
        }
        setUp()
        let stop = LockedValue(false)
        let done = Counter()
        Thread {
            while !stop.value {
                container.reset()
                setUp()
            }
            done.increment()
        }.start()
        var failures: [String] = []
        for index in 0..<20_000 {
            do {
                _ =
                    index.isMultiple(of: 2)
                    ? try container.resolveOrThrow(R3Service.self)
                    : try await container.resolveAsync(R3Service.self)
            } catch DIError.dependencyNotFound(let type, _, _) where type == R3Service.self {
                // reset() removed the service itself: expected.
            } catch { failures.append("\(error)") }
        }
        stop.mutate { $0 = true }
        _ = r3Wait { done.value == 1 }
        #expect(failures.count == 0, "\(failures.count) failures, e.g. \(failures.first ?? "")")
    }

    @Test("optional: Logger missing inside Logger's own graph (a child's factory asks the parent for it) fails")
    func missingInsideItsOwnGraphThroughTheParent() {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(R3Logger.self) { [unowned parent] in try parent.resolveOrThrow(R3Logger.self) }
        child.register(R3Service.self, initializer: R3Service.init(logger:))
        guard case .dependencyNotFound(let type, nil, _) = r3Error({ try child.resolveOrThrow(R3Service.self) }) else {
            Issue.record("expected dependencyNotFound, not nil")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier((any R3Logger).self))
    }

    @Test("optional: the same through an async initializer")
    func missingInsideItsOwnGraphThroughTheParentAsync() async {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(R3Logger.self) { [unowned parent] in try parent.resolveOrThrow(R3Logger.self) }
        child.registerAsync(R3Service.self, initializer: R3Service.init(logger:))
        await #expect(throws: DIError.self) { try await child.resolveAsync(R3Service.self) }
    }

    @Test("optional: Logger registered only in a context the task disabled is listed as absent by validate()")
    func validateUnderDisabledContext() {
        let container = Container()
        container.register(R3Logger.self, in: .custom("r3-logging")) { R3LoggerImpl("ctx") }
        container.register(R3Service.self, initializer: R3Service.init(logger:))
        let off = Container.withContexts(disabling: [.custom("r3-logging")]) { container.validate() }
        #expect(off.isValid)
        #expect(off.absentOptionalDependencies.count == 1)
        let on = Container.withContexts([.custom("r3-logging")]) { container.validate() }
        #expect(on.absentOptionalDependencies.isEmpty)
    }

    // MARK: 2. Context forms

    @Test("contexts: precedence argument > custom > preview > test > debug > plain, for argument factories")
    func precedenceForArgumentFactories() throws {
        let container = Container()
        container.register(R3Client.self) { (id: String) in R3ClientImpl(id: "plain-\(id)") }
        container.register(R3Client.self, in: .debug) { (id: String) in R3ClientImpl(id: "debug-\(id)") }
        container.register(R3Client.self, in: .test) { (id: String) in R3ClientImpl(id: "test-\(id)") }
        container.register(R3Client.self, in: .preview) { (id: String) in R3ClientImpl(id: "preview-\(id)") }
        container.register(R3Client.self, in: .custom("r3")) { (id: String) in R3ClientImpl(id: "custom-\(id)") }
        container.register(R3Client.self, in: .argument("-r3")) { (id: String) in R3ClientImpl(id: "arg-\(id)") }
        let all: [RegistrationContext] = [.argument("-r3"), .custom("r3"), .preview, .test, .debug]
        var seen: [String] = []
        for dropped in 0...all.count {
            let on = Set(all.dropFirst(dropped))
            let id = try Container.withContexts(on, exclusively: true) {
                try container.resolveOrThrow(R3Client.self, argument: "1").id
            }
            seen.append(id)
        }
        #expect(seen == ["arg-1", "custom-1", "preview-1", "test-1", "debug-1", "plain-1"])
    }

    @Test("contexts: among custom contexts, the one registered first wins, and keeps its place when re-registered")
    func customOrderAfterReRegistration() throws {
        let container = Container()
        container.register(R3Client.self, in: .custom("b")) { R3ClientImpl(id: "b") }
        container.register(R3Client.self, in: .custom("a")) { R3ClientImpl(id: "a") }
        let both: Set<RegistrationContext> = [.custom("a"), .custom("b")]
        #expect(try Container.withContexts(both) { try container.resolveOrThrow(R3Client.self).id } == "b")
        container.register(R3Client.self, in: .custom("b")) { R3ClientImpl(id: "b2") }
        let after = try Container.withContexts(both) { try container.resolveOrThrow(R3Client.self).id }
        // Replacing it keeps its place: it is still the context registered first.
        #expect(after == "b2", "\(after)")
    }

    @Test("contexts: a plain factory without arguments and a .test one with arguments")
    func mixedArityAcrossContexts() throws {
        let container = Container()
        container.register(R3Client.self) { R3ClientImpl(id: "plain") }
        container.register(R3Client.self, in: .test) { (id: String) in R3ClientImpl(id: "test-\(id)") }
        let forced = try Container.withContexts([.test]) {
            try container.resolveOrThrow(R3Client.self, argument: "7").id
        }
        #expect(forced == "test-7")
        let live = try Container.withContexts(disabling: [.test]) { try container.resolveOrThrow(R3Client.self).id }
        #expect(live == "plain")
        // While .test applies, resolving without arguments is a mismatch naming the type.
        let error = Container.withContexts([.test]) { r3Error { try container.resolveOrThrow(R3Client.self) } }
        #expect(error.map { "\($0)" }?.contains("R3Client") == true, "\(String(describing: error))")
    }

    @Test("contexts: withContexts reaches async let children and task-group children; Task.detached does not")
    func forcingReachesChildTasks() async throws {
        let container = Container()
        container.register(R3Client.self) { (id: String) in R3ClientImpl(id: "plain") }
        container.register(R3Client.self, in: .custom("r3-task")) { (id: String) in R3ClientImpl(id: "ctx") }
        try await Container.withContexts([.custom("r3-task")]) {
            async let a = container.resolveAsync(R3Client.self, argument: "x")
            let fromGroup = try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask { try container.resolveOrThrow(R3Client.self, argument: "y").id }
                return try await group.next()!
            }
            let fromDetached = try await Task.detached { try container.resolveOrThrow(R3Client.self, argument: "z").id }
                .value
            #expect(try await a.id == "ctx")
            #expect(fromGroup == "ctx")
            #expect(fromDetached == "plain")
        }
    }

    @Test("contexts: an autowired context registration with an optional parameter, in a child")
    func autowiredContextInChild() throws {
        let root = Container()
        root.register(R3Logger.self) { R3LoggerImpl("root") }
        root.register(R3Service.self) { R3Service(logger: nil) }
        let child = Container(parent: root)
        child.register(R3Service.self, in: .custom("r3-aw"), initializer: R3Service.init(logger:))
        let on = try Container.withContexts([.custom("r3-aw")]) { try child.resolveOrThrow(R3Service.self) }
        #expect(on.logger?.tag == "root")
        let off = try Container.withContexts(disabling: [.custom("r3-aw")]) { try child.resolveOrThrow(R3Service.self) }
        #expect(off.logger == nil, "the parent's plain registration serves")
        let declared = Container.withContexts([.custom("r3-aw")]) { child.declaredDependencies(of: R3Service.self) }
        #expect(declared?.first?.isOptional == true)
    }

    @Test("contributions: a named context contribution in its place; unnamed joins; handle removes it alone")
    func contributionOrderAndHandles() throws {
        let container = Container()
        container.register(into: R3Plugin.self, name: "a") { R3PluginImpl(id: "a") }
        container.register(into: R3Plugin.self, name: "b") { R3PluginImpl(id: "b") }
        container.register(into: R3Plugin.self, name: "c") { R3PluginImpl(id: "c") }
        let bTest = container.register(into: R3Plugin.self, name: "b", in: .custom("r3c")) { R3PluginImpl(id: "b-ctx") }
        let extra = container.register(into: R3Plugin.self, in: .custom("r3c")) { R3PluginImpl(id: "extra") }
        let newName = container.register(into: R3Plugin.self, name: "z", in: .custom("r3c")) { R3PluginImpl(id: "z") }
        #expect(bTest.context == .custom("r3c"))
        let on = Container.withContexts([.custom("r3c")]) { container.resolveAll(R3Plugin.self).map(\.id) }
        #expect(on.prefix(3) == ["a", "b-ctx", "c"])
        #expect(Set(on.dropFirst(3)) == ["extra", "z"])
        let off = container.resolveAll(R3Plugin.self).map(\.id)
        #expect(off == ["a", "b", "c"])
        bTest.unregister()
        extra.unregister()
        newName.unregister()
        let after = Container.withContexts([.custom("r3c")]) { container.resolveAll(R3Plugin.self).map(\.id) }
        #expect(after == ["a", "b", "c"])
    }

    @Test("contributions: a child's named context contribution and the parent's plain one of that name")
    func contributionAcrossChild() {
        let root = Container()
        root.register(into: R3Plugin.self, name: "a") { R3PluginImpl(id: "root-a") }
        let child = Container(parent: root)
        child.register(into: R3Plugin.self, name: "a", in: .custom("r3cc")) { R3PluginImpl(id: "child-a") }
        let on = Container.withContexts([.custom("r3cc")]) { child.resolveAll(R3Plugin.self).map(\.id) }
        // Record: contributions concatenate across containers (root's first).
        #expect(on == ["root-a", "child-a"], "\(on)")
        #expect(child.resolveAll(R3Plugin.self).map(\.id) == ["root-a"])
    }

    @Test("contexts: reset() on another thread while context registrations resolve")
    func resetWhileResolving() async {
        let container = Container()
        let stop = LockedValue(false)
        // The context variant first: between the two registrations only it exists (the other
        // order leaves a moment with only the plain one, where "p" is the right answer).
        let register: @Sendable () -> Void = {
            container.register(R3Client.self, in: .custom("r3r")) { (id: String) in R3ClientImpl(id: "c") }
            container.register(R3Client.self) { (id: String) in R3ClientImpl(id: "p") }
        }
        register()
        let resetter = Task.detached {
            while !stop.value {
                container.reset()
                register()
                await Task.yield()
            }
        }
        var unexpected: [String] = []
        Container.withContexts([.custom("r3r")]) {
            for _ in 0..<5_000 {
                do {
                    let id = try container.resolveOrThrow(R3Client.self, argument: "1").id
                    if id != "c" { unexpected.append(id) }
                } catch DIError.dependencyNotFound {
                } catch { unexpected.append("\(error)") }
            }
        }
        stop.mutate { $0 = true }
        await resetter.value
        #expect(unexpected.isEmpty, "\(unexpected.prefix(3))")
    }

    // MARK: 3. Synchronous cycles handed to waiters

    @Test("cycles: a factory whose DispatchQueue.async block resolves what it builds, then cycles")
    func dispatchAsyncInFactory() {
        let container = Container()
        let aRuns = Counter()
        let outcomes = Recorder<String>()
        let capture = LogCapture.current
        let waits = Recorder<Bool>()
        container.register(R3A.self, scope: .singleton) {
            if aRuns.next() < 50 {
                DispatchQueue.global().async {
                    withCurrentLogCapture(capture) {
                        do {
                            _ = try container.resolveOrThrow(R3A.self)
                            outcomes.append("ok")
                        } catch DIError.circularDependency { outcomes.append("cycle") } catch {
                            outcomes.append("\(error)")
                        }
                    }
                }
            }
            // The block waits for this build before the cycle closes (a block started after the
            // build failed is a new resolution, which builds A again).
            waits.append(r3Wait(20) { BuildCoordinator.shared.waiterCount(forJob: r3NameA) > 0 })
            _ = try container.resolveOrThrow(R3B.self)
            return R3A()
        }
        container.register(R3B.self, scope: .singleton) {
            _ = try container.resolveOrThrow(R3A.self)
            return R3B()
        }
        guard case .circularDependency = r3Error({ try container.resolveOrThrow(R3A.self) }) else {
            Issue.record("expected a cycle")
            return
        }
        #expect(r3Wait { outcomes.all.count >= 1 })
        usleep(50_000)
        // Checked only when the block was waiting as the build failed (see the Task {} probe).
        if waits.all.first == true {
            #expect(
                aRuns.value == 1,
                "A's factory ran \(aRuns.value) times; outcomes \(outcomes.all.prefix(5)); waits \(waits.all)")
        }
        #expect(outcomes.all.allSatisfy { $0 == "cycle" }, "\(outcomes.all.prefix(5))")
    }

    @Test("cycles: a factory whose Task {} resolves synchronously what it builds, then cycles")
    func unstructuredTaskSyncResolveInFactory() async throws {
        let container = Container()
        let aRuns = Counter()
        let outcomes = Recorder<String>()
        let capture = LogCapture.current
        let waits = Recorder<Bool>()
        container.register(R3TA.self, scope: .singleton) {
            if aRuns.next() < 50 {
                Task {
                    withCurrentLogCapture(capture) {
                        do {
                            _ = try container.resolveOrThrow(R3TA.self)
                            outcomes.append("ok")
                        } catch DIError.circularDependency { outcomes.append("cycle") } catch {
                            outcomes.append("\(error)")
                        }
                    }
                }
            }
            // The task waits for this build before the cycle closes (a task started after the
            // build failed is a new resolution, which builds A again).
            waits.append(r3Wait(20) { BuildCoordinator.shared.waiterCount(forJob: r3NameTA) > 0 })
            _ = try container.resolveOrThrow(R3TB.self)
            return R3TA()
        }
        container.register(R3TB.self, scope: .singleton) {
            _ = try container.resolveOrThrow(R3TA.self)
            return R3TB()
        }
        // Resolved on a thread of its own: the task needs a free executor thread, which a test
        // blocking its own could take from it (a task started after the build failed builds A
        // again).
        let result = LockedValue<String?>(nil)
        Thread {
            withCurrentLogCapture(capture) {
                let cycle = r3Error({ try container.resolveOrThrow(R3TA.self) }).map { "\($0)" } ?? "ok"
                result.mutate { $0 = cycle }
            }
        }.start()
        let deadline = Date() + 30
        while result.value == nil || outcomes.all.isEmpty, Date() < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(result.value?.contains("R3TA") == true, "\(String(describing: result.value))")
        try await Task.sleep(for: .milliseconds(50))
        // The promise holds for a task already waiting when the build fails. Under a loaded full
        // run (every executor thread busy) the task may not start within the wait: then it is a
        // new resolution, which builds A again and meets the cycle itself (ConcurrencyModel,
        // "Factories that hand work to another thread"); only the outcomes are checked then.
        if waits.all.first == true {
            #expect(
                aRuns.value == 1,
                "A's factory ran \(aRuns.value) times; outcomes \(outcomes.all.prefix(5)); waits \(waits.all)")
        }
        #expect(!outcomes.all.isEmpty && outcomes.all.allSatisfy { $0 == "cycle" }, "\(outcomes.all.prefix(5))")
    }

    @Test("cycles: an autowired cycle through an optional parameter while threads wait for the build")
    func autowiredCycleWithWaiters() {
        final class CA: Sendable { init(b: CB?) { usleep(20_000) } }
        final class CB: Sendable { init(a: CA) {} }
        let container = Container()
        container.register(CA.self, scope: .singleton, initializer: CA.init(b:))
        container.register(CB.self, scope: .singleton, initializer: CB.init(a:))
        let results = Recorder<String>()
        let capture = LogCapture.current
        let threads = (0..<4).map { _ in
            Thread {
                withCurrentLogCapture(capture) {
                    if case .circularDependency = r3Error({ try container.resolveOrThrow(CA.self) }) {
                        results.append("cycle")
                    } else {
                        results.append("other")
                    }
                }
            }
        }
        for thread in threads { thread.start() }
        #expect(r3Wait { results.all.count == 4 })
        #expect(results.all == ["cycle", "cycle", "cycle", "cycle"])
    }
}
