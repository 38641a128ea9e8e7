import Atomics
import Foundation

/// A dependency container: registrations in, instances out.
///
/// `Container` is thread-safe: register and resolve from any thread or task, including from inside
/// a factory while it runs. Resolution is lazy (a factory runs when its type is resolved, never
/// when registered), singletons are built exactly once, cycles are reported with their path, and
/// a child container falls back to its parent.
///
/// ```swift
/// await WeaveDI.Container.bootstrap { container in
///     container.register(DatabaseService.self, scope: .singleton) { CoreDataService() }
///     container.register(UserRepository.self) { UserRepositoryImpl() }
/// }
/// let repository = WeaveDI.Container.shared.resolve(UserRepository.self)
/// ```
public final class Container: @unchecked Sendable {
    @usableFromInline let registry: Registry
    /// The registry's current-table pointer, kept here too so the resolution path reaches the
    /// table in one load fewer (each is a step of a dependent chain on every resolution).
    @usableFromInline let currentTable: UnsafeAtomic<Unmanaged<SlotTable>>
    /// The container this one falls back to for types it has no registration for.
    public let parent: Container?
    /// The root of the parent chain; it owns auto-registration.
    @usableFromInline package let root: Container?
    /// Whether a resolution can go straight to this container's registry: where `AutoRegistering`
    /// stands for the root container (an ``AutoRegistrationState``'s raw value), plus
    /// ``divertedBit`` while a validation diverts resolutions of the root's containers. One word
    /// per root container, shared by its children, so every resolution checks both with a single
    /// load and comparison (with `done`). Changed only under `autoRegistration`'s lock.
    /// (`UnsafeAtomic`, not `ManagedAtomic`: reading a `ManagedAtomic` from inlined client code
    /// costs a retain, a release and a dynamic call; a raw byte, not the enum: loading the enum
    /// would also check the byte is one of its cases.)
    @usableFromInline let autoRegistrationWord: UnsafeAtomic<UInt8>
    /// The run in progress, whether `reset()` asked for another, and the validations diverting
    /// resolutions (root containers only).
    let autoRegistration = Locked<AutoRegistrationControl>(AutoRegistrationControl())
    let scopes = ScopeStorage()
    /// The singletons ``disposeSingletons(where:)`` disposed, by object: one set per root
    /// container, shared by its children, so an object reached from a child (an alias) and from
    /// the root is disposed once.
    let disposedSingletons: DisposedObjects
    package let graph = DependencyGraphRecorder()
    package let statisticsStore = StatisticsStore()
    /// Set on a validation sandbox: failures go here instead of to the app's hooks and log.
    let failureSink: ValidationCollector?
    /// Set on a validation sandbox: graph edges are recorded even while optimization is on.
    @usableFromInline let alwaysRecordsGraph: Bool

    /// The process-wide switches, referenced from the container so the resolution path reads them
    /// without going through the lazily initialized global's accessor.
    @usableFromInline let flags: RuntimeFlags = runtimeFlags
    /// `flags.graphRecordingOff` and `flags.timing`, kept here too: every resolution reads one of them,
    /// and this saves the hop through `flags`.
    @usableFromInline let graphRecordingOffFlag: UnsafeAtomic<Bool> = runtimeFlags.graphRecordingOff
    @usableFromInline let timingFlag: UnsafeAtomic<Bool> = runtimeFlags.timing
    /// `flags.factoryHooks`, read by every transient factory run.
    @usableFromInline let factoryHooksFlag: UnsafeAtomic<Bool> = runtimeFlags.factoryHooks
    /// The decorators added to this container's types (``decorate(_:name:file:line:_:)``), in
    /// order. Replaced whole on every change, so a factory run reads them with one atomic load of
    /// a plain pointer, no lock and no retain.
    @usableFromInline let decorators = DecoratorStore()
    /// `flags.asyncFactoriesRunning`, kept here for the same reason.
    @usableFromInline let asyncFactoriesRunning: UnsafeAtomic<Int> = runtimeFlags.asyncFactoriesRunning

    /// What to do when a type is registered again under the same name.
    public var duplicatePolicy: DuplicatePolicy {
        get { rejectsDuplicates.load(ordering: .relaxed) ? .reject : .replace }
        set { rejectsDuplicates.store(newValue == .reject, ordering: .relaxed) }
    }

    /// Backs ``duplicatePolicy``: read on every registration, so an atomic rather than a lock.
    private let rejectsDuplicates = ManagedAtomic<Bool>(false)

    /// Creates an empty container. With a `parent`, types this container does not register are
    /// resolved by the parent; the parent never sees this container's registrations.
    public init(parent: Container? = nil) {
        registry = Registry()
        currentTable = registry.current
        self.parent = parent
        let root = parent.map { $0.root ?? $0 }
        self.root = root
        self.autoRegistrationWord = root?.autoRegistrationWord ?? .create(AutoRegistrationState.pending.rawValue)
        self.failureSink = nil
        self.disposedSingletons = parent?.disposedSingletons ?? DisposedObjects()
        self.alwaysRecordsGraph = false
    }

    /// A validation sandbox: a root container whose failures and slow resolutions reach
    /// `sink` only, and which never runs `AutoRegistering` (it is filled with copies instead).
    /// A sandbox standing for a child container has the sandbox of that container's parent as its
    /// parent, so resolution walks the same chain it does in the app.
    package init(sandboxReportingTo sink: ValidationCollector, parent: Container? = nil) {
        registry = Registry()
        currentTable = registry.current
        self.parent = parent
        let root = parent.map { $0.root ?? $0 }
        self.root = root
        self.autoRegistrationWord = root?.autoRegistrationWord ?? .create(AutoRegistrationState.done.rawValue)
        self.failureSink = sink
        self.disposedSingletons = DisposedObjects()
        self.alwaysRecordsGraph = true
    }

    /// Whether resolutions record dependency-graph edges: unless optimization is on. A sandbox
    /// always records (validation needs the edges); the common path reads one atomic.
    @inlinable @inline(__always)
    var recordsGraph: Bool { !graphRecordingOffFlag.load(ordering: .relaxed) || alwaysRecordsGraph }

    deinit {
        // A child shares its root's word; the root (which the child keeps alive) frees it.
        if root == nil { autoRegistrationWord.destroy() }
    }

    @usableFromInline package var identity: ObjectIdentifier { ObjectIdentifier(self) }

    // MARK: Shared container

    /// The process-wide container.
    @usableFromInline static let processWide = Container()

    /// Set, and never cleared, by the first `withShared`: until then `shared` skips the task-local
    /// lookup. Never cleared because a task created inside a binding may outlive it and must keep
    /// seeing its container.
    @usableFromInline static let bindingsUsed = UnsafeAtomic<Bool>.create(false)

    @TaskLocal static var boundContainer: Container?

    /// The container `UnifiedDI`, the property wrappers and `Factory` keys use.
    ///
    /// It is the process-wide container, unless the current task runs inside
    /// ``withShared(_:operation:)-(_,()->R)`` (as WeaveDI's test traits do), which gives it a
    /// container of its own.
    @inlinable
    public static var shared: Container {
        if !bindingsUsed.load(ordering: .relaxed) { return processWide }
        return boundShared()
    }

    @usableFromInline
    static func boundShared() -> Container { boundContainer ?? processWide }

    /// Whether `container` is the process-wide container (not one bound with `withShared`).
    package static func isProcessWide(_ container: Container) -> Bool { container === processWide }

    /// Runs `operation` with `container` as ``shared`` for the current task and the child tasks
    /// and `Task {}`s it creates (a task-local value). `Task.detached`, other threads and dispatch
    /// queues keep seeing the process-wide container, and other tasks their own.
    public static func withShared<R>(_ container: Container, operation: () throws -> R) rethrows -> R {
        if !bindingsUsed.load(ordering: .relaxed) { bindingsUsed.store(true, ordering: .relaxed) }
        return try $boundContainer.withValue(container, operation: operation)
    }

    /// Runs `operation` with `container` as ``shared`` for the current task and the child tasks
    /// and `Task {}`s it creates (a task-local value). `Task.detached`, other threads and dispatch
    /// queues keep seeing the process-wide container, and other tasks their own.
    public static func withShared<R>(
        _ container: Container,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        if !bindingsUsed.load(ordering: .relaxed) { bindingsUsed.store(true, ordering: .relaxed) }
        return try await $boundContainer.withValue(container, operation: operation, isolation: isolation)
    }

    // MARK: Depth

    /// An extra limit on how many synchronous factories may run nested on one thread (a factory
    /// resolving something whose factory resolves something, …), beyond which a resolution fails
    /// with ``DIError/resolutionTooDeep(path:depth:limit:)``; process-wide.
    ///
    /// `Int.max` by default: no count limit. What stops a runaway chain of synchronous factories
    /// is the thread's stack itself: before each nested factory, WeaveDI compares the stack left
    /// on the current thread with what the next level could need (a reserve of 64 KB for
    /// reporting the failure, plus four levels of the size the chain's levels took so far), and
    /// fails with ``DIError/DepthLimit/threadStack(remainingBytes:neededBytes:)`` instead of
    /// overflowing it. A chain therefore goes as deep as the thread's stack allows: thousands of
    /// levels on an 8 MB stack. Set this to stop chains earlier, at a depth you choose. It also
    /// bounds async factories nested in one task, when lower than
    /// ``maximumAsyncResolutionDepth``.
    public static var maximumResolutionDepth: Int {
        get { runtimeFlags.depthLimit.load(ordering: .relaxed) }
        set { runtimeFlags.depthLimit.store(max(1, newValue), ordering: .relaxed) }
    }

    /// How many async factories may run nested in one task (an async factory resolving, with
    /// `await`, something whose async factory resolves something, …) before a resolution fails
    /// with ``DIError/resolutionTooDeep(path:depth:limit:)``; process-wide, 1 000 by default.
    ///
    /// Async factories run on task frames, not on a thread's stack, so the stack guard of
    /// synchronous factories does not apply to them; this count is the bound against runaway
    /// recursion (a factory that keeps resolving new names), which would otherwise grow the
    /// task's memory until the process runs out. Only the factories the task itself runs and
    /// that have not returned count: those it inherited from the task that started it, and
    /// those that have returned, do not.
    public static var maximumAsyncResolutionDepth: Int {
        get { runtimeFlags.asyncDepthLimit.load(ordering: .relaxed) }
        set { runtimeFlags.asyncDepthLimit.store(max(1, newValue), ordering: .relaxed) }
    }

    /// ``maximumAsyncResolutionDepth``'s default.
    static var defaultMaximumAsyncResolutionDepth: Int { 1000 }

    /// How long a task waits for a build that it *may* be blocking before the wait fails with
    /// ``DIError/circularDependency(path:)``; process-wide, 2 seconds by default.
    ///
    /// A task started inside an async factory inherits the factory's resolution path, and
    /// WeaveDI cannot tell a structured child (`async let`, a task group), which the factory
    /// awaits, from a `Task {}`, which it does not. So a wait that closes a cycle only through
    /// such a task is a *possible* cycle: the task waits, and if the cycle is still there when
    /// this time has passed (a structured child's is: the factory can never return), the wait
    /// fails. A `Task {}` whose factory returns within this time gets the instance; one whose
    /// factory runs longer gets the error, so keep this longer than any factory that starts a
    /// `Task {}` resolving what that factory builds (or start such work with `Task.detached`).
    /// Cycles WeaveDI can prove (within one task, across tasks' own factories, and across
    /// threads) fail at once. See the Concurrency Model article.
    public static var possibleCycleTimeout: Duration {
        get { .nanoseconds(Int64(clamping: possibleCycleTimeoutNanoseconds)) }
        set {
            let (seconds, attoseconds) = newValue.components
            let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
            runtimeFlags.possibleCycleTimeout.store(UInt64(clamping: max(1, nanoseconds)), ordering: .relaxed)
        }
    }

    static var possibleCycleTimeoutNanoseconds: UInt64 { runtimeFlags.possibleCycleTimeout.load(ordering: .relaxed) }

    // MARK: Auto-registration

    /// Runs `AutoRegistering` if it has not run for the root container, or waits for the thread
    /// running it (a resolution made by `registerAllServices` itself goes ahead).
    ///
    /// - Throws: ``DIError/circularDependency(path:)`` when the run waits, directly or through
    ///   other threads, for this thread: waiting would never end.
    @inlinable @inline(__always)
    package func ensureAutoRegistered() throws(DIError) {
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue {
            try (root ?? self).runAutoRegistration()
        }
    }

    /// Set in ``autoRegistrationWord`` while a validation diverts this root's resolutions (see
    /// ``divertedTarget()``), so that they leave the fast path.
    static var divertedBit: UInt8 { 0b100 }

    /// Where auto-registration stands (slow paths; written under `autoRegistration`'s lock, which
    /// also keeps the diverted bit as it is).
    var autoRegistrationState: AutoRegistrationState {
        get {
            let raw = autoRegistrationWord.load(ordering: .acquiring) & ~Container.divertedBit
            return AutoRegistrationState(rawValue: raw) ?? .pending
        }
        set {
            let diverted = autoRegistrationWord.load(ordering: .relaxed) & Container.divertedBit
            autoRegistrationWord.store(newValue.rawValue | diverted, ordering: .releasing)
        }
    }

    /// The container a resolution asked of this one runs in instead: the validation sandbox,
    /// while the current thread validates a container chain this one belongs to (its factories
    /// may have captured this container). `nil` otherwise; one relaxed load when no validation
    /// runs.
    func divertedTarget() -> Container? {
        guard autoRegistrationWord.load(ordering: .relaxed) & Container.divertedBit != 0 else { return nil }
        return ResolutionStack.current.validation?.target(for: self) ?? ValidationDiversion.task?.target(for: self)
    }

    /// The slow path of a resolution whose container's word is not `done`: the container to
    /// resolve in instead (a validation sandbox), or `nil` after auto-registration is done.
    @usableFromInline
    func prepareResolution() throws(DIError) -> Container? {
        if autoRegistrationWord.load(ordering: .relaxed) & Container.divertedBit != 0,
            let sandbox = ResolutionStack.current.validation?.targetNotingReach(for: self)
                ?? ValidationDiversion.task?.targetNotingReach(for: self)
        {
            return sandbox
        }
        try (root ?? self).runAutoRegistration()
        return nil
    }

    /// This container, or the validation sandbox it is diverted to (after auto-registration).
    @inlinable
    package func resolutionTarget() throws(DIError) -> Container {
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue,
            let sandbox = try prepareResolution()
        {
            return sandbox
        }
        return self
    }

    // Concurrency model: the run is a `BuildTicket` job owned by the thread running it; waiting
    // for it is an edge of the one wait-for graph. States: pending → running → done, and
    // running → pending when `reset()` came during the run (the run's registrations were cleared,
    // so the next resolution runs it again), done → pending on `reset()`. Transitions happen under
    // `autoRegistration`'s lock; the atomic lets resolutions skip the lock once done.
    //
    // A call is served by a run that started after every reset made before the call began: it
    // runs one, or waits for one, and returns once it is over, even when another reset came
    // meanwhile (that reset raced this resolution, as it may race any of its steps; the next one
    // runs again). So a call waits for at most one older run and then runs or waits for one more:
    // a thread looping `reset()` forces re-runs, never an endless loop of them.
    @usableFromInline
    func runAutoRegistration() throws(DIError) {
        guard let adopter = Container.self as? AutoRegistering.Type else {
            autoRegistration.withLock { _ in autoRegistrationState = .done }
            return
        }
        let stack = ResolutionStack.current
        let me = stack.threadID
        enum Step {
            case done
            case run(BuildTicket)
            /// Wait for the run; `serves`: it started after the resets this call must see.
            case wait(BuildTicket, serves: Bool)
        }
        // The resets made before this call (read with its first step).
        var resetsBefore: Int?
        while true {
            // Read outside the run's lock: the registry's write lock is never taken inside it.
            let start = registry.latestSequence
            let step: Step = autoRegistration.withLock { run in
                let before = resetsBefore ?? run.resets
                resetsBefore = before
                switch autoRegistrationState {
                case .done:
                    return .done
                case .pending:
                    let ticket = BuildTicket(job: .autoRegistration, owner: me)
                    run.ticket = ticket
                    run.startSequence = start
                    run.resetsAtStart = run.resets
                    autoRegistrationState = .running
                    return .run(ticket)
                case .running:
                    let ticket = run.ticket.unsafelyUnwrapped // set whenever the state is running
                    return ticket.owner == me ? .done : .wait(ticket, serves: run.resetsAtStart >= before)
                }
            }
            switch step {
            case .done:
                return
            case .run(let ticket):
                Container.withShared(self) { adopter.registerAllServices() }
                BuildCoordinator.shared.finish(ticket) {
                    autoRegistration.withLock { run in
                        autoRegistrationState = run.resetDuringRun ? .pending : .done
                        run.ticket = nil
                        run.resetDuringRun = false
                    }
                }
                return
            case .wait(let ticket, let serves):
                try BuildCoordinator.shared.wait(for: ticket, waiter: me, waiterPath: stack.path)
                if serves { return }
            }
        }
    }

    /// While this thread runs `registerAllServices()` for this root container: the latest write
    /// made before the run, which the run's registrations do not replace (a test's mocks and
    /// `Factory` overrides, registered first, win). `nil` otherwise (one atomic load).
    func keptByAutoRegistration() -> Int? {
        guard root == nil, autoRegistrationState == .running else { return nil }
        let me = ResolutionStack.current.threadID
        return autoRegistration.withLock { run in run.ticket?.owner == me ? run.startSequence : nil }
    }

    /// `reset()`'s part: the next resolution runs `AutoRegistering` again — after the run in
    /// progress, if any, whose registrations so far were just cleared.
    func restartAutoRegistration() {
        autoRegistration.withLock { run in
            run.resets &+= 1
            switch autoRegistrationState {
            case .done: autoRegistrationState = .pending
            case .running: run.resetDuringRun = true
            case .pending: break
            }
        }
    }
}

/// Where a root container's `AutoRegistering` run stands.
@usableFromInline
enum AutoRegistrationState: UInt8, Sendable {
    /// Not run yet (or reset since): the next resolution runs it.
    case pending
    /// `registerAllServices()` is running on the thread that owns the run's ticket.
    case running
    /// Done, or `Container` does not adopt `AutoRegistering`.
    case done
}

/// The auto-registration run in progress and the diverting validations (guarded by the
/// container's lock for them).
struct AutoRegistrationControl {
    /// The running thread's ticket, while the state is `running`.
    var ticket: BuildTicket?
    /// `reset()` was called during the run: its registrations were cleared, so it runs again.
    var resetDuringRun = false
    /// How many times `reset()` restarted auto-registration: a call waits for a run that started
    /// after the resets made before it (see `Container.runAutoRegistration`).
    var resets = 0
    /// ``resets`` when the run in progress started.
    var resetsAtStart = 0
    /// The registry's latest write when the run started: the run does not replace a registration
    /// made by then (see `Container.keptByAutoRegistration`).
    var startSequence = 0
    /// Validations currently diverting the root's resolutions to their sandboxes.
    var diversions = 0
}

extension Container {
    /// What ``Container/register(_:scope:file:line:factory:)-(_,_,_,_,()->T)`` does when the type and name are
    /// already registered.
    public enum DuplicatePolicy: Sendable {
        /// The later registration replaces the earlier one (logged as a warning naming both places).
        case replace
        /// The later registration is refused; the earlier one stays, and the refusal is reported to
        /// `onResolutionError` and logged as an error naming both places.
        case reject
    }
}
