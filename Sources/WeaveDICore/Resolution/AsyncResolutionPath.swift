import Atomics
import Foundation

#if !canImport(Darwin)
    import Synchronization
#endif

// Concurrency model (ConcurrencyModel article, "Tasks"; Spec/TaskWait.pml): an async factory may
// suspend and resume on another thread, so its resolution path cannot live on a thread's stack.
// It travels with the task: a task-local chain of `AsyncFrame`s, one per async factory running,
// bound with `TaskLocal.withValue` around the factory's call.
//
// Facts the design rests on:
// - Every task created inside a factory inherits the chain: structured children (`async let`, a
//   task group), which the factory must await before it returns, and unstructured `Task {}`s,
//   which it never awaits and which may run on after it returns. Nothing public tells the two
//   apart, so an inherited frame is a build the task *may* block (`AsyncFrame.isOwn`).
// - A frame is *open* while its factory runs and *closed* once it returns. A closed frame is no
//   build anyone can block: the path skips it (a `Task {}` that outlives its factory keeps only
//   the open factories above it, which may still await it through a handle the factory returned).
//   A parent pushed by another task is held weakly (an open frame is held by its task's
//   binding), so a chain of jobs each started by the last does not keep the earlier ones alive;
//   a parent pushed by the same task is held strongly (bounded by the depth limit), so a task
//   handed up through several returned factories still reaches the open one above them.
// - Only a task's own open frames count towards `Container.maximumAsyncResolutionDepth`: they
//   are the factories nested in this task; inherited ones run in other tasks, and a returned
//   factory's frame is closed. (The thread's stack bounds synchronous factories; task frames are
//   on the heap, so a count is the bound against runaway recursion.)
// - A task is named by its address, which is never retained (the runtime owns task objects; a
//   structured child is destroyed by its parent whatever its reference count). An address is
//   reused only after its task ended, and a task ends only after every frame it pushed closed:
//   so an open frame's `taskID` names a living task.

/// One async factory running: a link of a task's async resolution path.
final class AsyncFrame: @unchecked Sendable {
    let frame: ResolutionFrame
    /// The registration whose factory runs.
    let record: AsyncRecord
    /// The frame this one was pushed under: held strongly when the same task pushed it (a task's
    /// own nesting is bounded by the depth limit, and a `Task {}` whose handle is handed up
    /// through several returned factories still reaches the open one above them), weakly when
    /// another task did (so chains of tasks do not keep each other's frames alive).
    var parent: AsyncFrame? { ownParent ?? otherParent }
    private let ownParent: AsyncFrame?
    private weak var otherParent: AsyncFrame?
    /// The child container the resolution was asked of when this container's parent-side
    /// registration serves it (`nil`: asked of the container that runs the factory). An autowired
    /// factory resolves its parameters through it. Set before the factory runs.
    weak var requester: Container?
    /// The address of the task that runs the factory (not retained; see above).
    let taskID: UInt
    /// The task's own frames on the path when this one was pushed, this one included.
    let depth: Int
    /// ``State`` bits. Both sides change it with one read-modify-write, so of "the factory returned"
    /// and "a task waits for it to return" each sees whether the other came first.
    private let state = FrameStateWord()

    /// Bits of ``state``.
    private enum State {
        /// The factory has returned (or thrown).
        static let closed: UInt8 = 1
        /// A task waits (or waited) for the frame to close: closing finishes `closeTicket`.
        static let watched: UInt8 = 2
        /// The frame holds a graph (`Scope.graph`): closing releases it.
        static let holdsGraph: UInt8 = 4
    }

    /// The graph of the outermost resolution whose outermost open frame this is (`Scope.graph`),
    /// made by its first graph-scoped resolution; released when the frame closes. Guarded by
    /// ``graphLock`` (taken on graph-scoped resolutions only).
    private var graph: ScopeInstance?
    private static let graphLock = NSLock()

    /// The ticket tasks wait on for a transient frame to close; guarded by the coordinator's mutex.
    var closeTicket: BuildTicket?
    /// The cycle `checkOwnPath` proved through this frame (its task resolved a key one of its own
    /// open factories builds), as `BuildTicket.provenCycle` is for a cycle a wait proved; guarded
    /// by the coordinator's mutex. Should the build this frame runs fail, its waiters get it
    /// instead of building again: a retry would form the same cycle (and a factory that starts a
    /// `Task {}` would start one per retry, each retrying in turn).
    var provenCycle: DIError?
    /// The last failures a resolution made inside this factory reported, by the factory's own
    /// task and by a task started inside it: the factory rethrowing one does not make the entry
    /// points it propagates through report it again. An entry point of the factory's own task
    /// skips only a failure its own task reported (a `Task {}` failing on its own is not the
    /// factory failing). Touched only on failure paths, under one process-wide lock.
    private var reportedHere: DIError?
    private var reportedInTask: DIError?
    private static let reportLock = NSLock()

    /// Notes that `error` was reported by a resolution in task `taskID`, made inside this factory.
    func noteReported(_ error: DIError, by taskID: UInt) {
        let own = isOwn(by: taskID)
        AsyncFrame.reportLock.lock()
        defer { AsyncFrame.reportLock.unlock() }
        if own { reportedHere = error } else { reportedInTask = error }
    }

    /// Whether the factory's own task already reported `error`.
    func reportedHere(_ error: DIError) -> Bool {
        AsyncFrame.reportLock.lock()
        defer { AsyncFrame.reportLock.unlock() }
        return reportedHere.map { $0.isSameFailure(as: error) } ?? false
    }

    /// Whether `error`, which the factory threw, was already reported inside it (in any task).
    func reportedInside(_ error: DIError) -> Bool {
        AsyncFrame.reportLock.lock()
        defer { AsyncFrame.reportLock.unlock() }
        return (reportedHere.map { $0.isSameFailure(as: error) } ?? false)
            || (reportedInTask.map { $0.isSameFailure(as: error) } ?? false)
    }

    /// `parent` must be open (the current task's open path, `AsyncResolutionPath.openTop`).
    init(frame: ResolutionFrame, record: AsyncRecord, parent: AsyncFrame?, taskID: UInt) {
        self.frame = frame
        self.record = record
        let sameTask = parent?.isOwn(by: taskID) ?? false
        ownParent = sameTask ? parent : nil
        otherParent = sameTask ? nil : parent
        self.taskID = taskID
        // A task's own frames are pushed on top of the ones it inherited, and pop in order.
        depth = parent.map { $0.isOwn(by: taskID) ? $0.depth + 1 : 1 } ?? 1
    }

    var isClosed: Bool { state.load() & State.closed != 0 }

    /// This frame if its factory still runs, else the nearest open frame above it (while the
    /// frames between are alive).
    var nearestOpen: AsyncFrame? {
        var current: AsyncFrame? = self
        while let frame = current, frame.isClosed { current = frame.parent }
        return current
    }

    /// Whether the task `taskID` pushed this frame itself (and so blocks it for sure by waiting).
    @inline(__always)
    func isOwn(by taskID: UInt) -> Bool { self.taskID == taskID }

    /// The next open frame of the path above this one.
    @inline(__always)
    var openParent: AsyncFrame? { parent?.nearestOpen }

    /// The open frames of the path from this one up, innermost first.
    var openChain: [AsyncFrame] {
        var frames: [AsyncFrame] = []
        var current = nearestOpen
        while let frame = current {
            frames.append(frame)
            current = frame.openParent
        }
        return frames
    }

    /// The display names of the open chain, outermost first.
    var pathNames: [String] { openChain.reversed().map(\.frame.displayName) }

    /// Called by the frame's task when its factory has returned.
    func close() {
        let before = state.fetchOr(State.closed)
        if before & State.watched != 0 { BuildCoordinator.shared.frameClosed(self) }
        if before & State.holdsGraph != 0 { releaseGraph() }
    }

    /// The outermost open frame of the path from this one up: the outermost resolution still
    /// running, whose graph the path's graph-scoped resolutions share.
    var graphOwner: AsyncFrame {
        var owner = nearestOpen ?? self
        while let parent = owner.openParent { owner = parent }
        return owner
    }

    /// This frame's graph, made now if it has none (`adopting`, when given, becomes it: the graph
    /// a graph-scoped outermost resolution built its own instance in). A frame that closed
    /// meanwhile keeps nothing: the caller's resolution uses the graph, and then it is gone.
    func sharedGraph(adopting: ScopeInstance? = nil) -> ScopeInstance {
        AsyncFrame.graphLock.lock()
        if let graph {
            AsyncFrame.graphLock.unlock()
            return graph
        }
        let made = adopting ?? ScopeInstance(scope: .graph)
        graph = made
        AsyncFrame.graphLock.unlock()
        // Of "the graph is stored" and "the frame closed", the second to happen releases it.
        if state.fetchOr(State.holdsGraph) & State.closed != 0 { releaseGraph() }
        return made
    }

    /// Drops the graph; its instances are released outside the lock (deinits may resolve).
    private func releaseGraph() {
        AsyncFrame.graphLock.lock()
        let released = graph
        graph = nil
        AsyncFrame.graphLock.unlock()
        withExtendedLifetime(released) {}
    }

    /// Under the coordinator's mutex: the ticket to wait on until this (transient) frame closes,
    /// or `nil` when it is closed already.
    func ticketForClose(job: BuildTicket.Job) -> BuildTicket? {
        let before = state.fetchOr(State.watched)
        if before & State.closed != 0 { return nil }
        if let closeTicket { return closeTicket }
        let ticket = BuildTicket(job: job, taskNode: AsyncResolutionPath.node(taskID), frame: self)
        closeTicket = ticket
        return ticket
    }
}

/// The task-local async resolution path and task identity.
enum AsyncResolutionPath {
    /// The innermost async factory running in (or inherited by) the current task. Possibly
    /// closed: readers go to its `nearestOpen` frame.
    @TaskLocal static var top: AsyncFrame?

    /// The innermost open frame of the current task's path.
    @inline(__always)
    static var openTop: AsyncFrame? { top?.nearestOpen }

    /// The current task's address (`0` outside a task), read without retaining the task.
    @inline(__always)
    static func currentTaskID() -> UInt {
        withUnsafeCurrentTask { task in
            guard let task else { return 0 }
            // One reference, read as a plain word: no retain, no release.
            return unsafeBitCast(task, to: UInt.self)
        }
    }

    /// The graph node of the task at `address`.
    @inline(__always)
    static func node(_ address: UInt) -> ObjectIdentifier { unsafeBitCast(address, to: ObjectIdentifier.self) }

    /// Raises the priority of the task at `address` to `priority` (a waiter's), so a build that
    /// a more urgent task waits for runs at that task's priority. The caller guarantees the task
    /// is alive (it owns an open ticket, checked under the coordinator's mutex).
    static func escalate(taskAt address: UInt, to priority: TaskPriority) {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                guard let pointer = UnsafeRawPointer(bitPattern: address) else { return }
                // A view of the living task, borrowed: whatever the view retains it releases.
                Unmanaged<AnyObject>.fromOpaque(pointer)._withUnsafeGuaranteedRef { object in
                    let task = unsafeBitCast(object, to: UnsafeCurrentTask.self)
                    if task.priority < priority { task.escalatePriority(to: priority) }
                }
            }
        #endif
    }
}

#if canImport(Darwin)
    /// An atomic byte (a `ManagedAtomic`: `Synchronization.Atomic` needs macOS 15 and iOS 18).
    struct FrameStateWord: Sendable {
        private let word = ManagedAtomic<UInt8>(0)
        func load() -> UInt8 { word.load(ordering: .acquiring) }
        func fetchOr(_ bits: UInt8) -> UInt8 { word.loadThenBitwiseOr(with: bits, ordering: .acquiringAndReleasing) }
    }
#else
    /// An atomic byte stored in place in the frame (no allocation of its own).
    struct FrameStateWord: ~Copyable, Sendable {
        private let word = Atomic<UInt8>(0)
        func load() -> UInt8 { word.load(ordering: .acquiring) }
        func fetchOr(_ bits: UInt8) -> UInt8 {
            word.bitwiseOr(bits, ordering: .acquiringAndReleasing).oldValue
        }
    }
#endif
