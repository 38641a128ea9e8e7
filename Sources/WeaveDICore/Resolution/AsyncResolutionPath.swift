// Concurrency model (Reliability/ConcurrencyModel article, "Async factories"): an async factory
// may suspend and resume on another thread, so its resolution path cannot live on a thread's
// stack. It travels with the task instead: a task-local chain of immutable `AsyncFrame`s, one per
// async factory running, bound with `TaskLocal.withValue` around the factory's call. Child tasks
// (`async let`, task groups, `Task {}`) inherit the chain.
//
// A task's node in the one wait-for graph is its address. Each frame keeps a reference to the
// task that pushed it, so that address cannot be reused by another task while any frame names
// it: a frame with the current task's address is the task's own; the others were inherited from
// a parent task. The shared builds open on the inherited part of the chain are builds the parent
// awaits this task inside of, so a chain of waits leading back to their owner is a cycle
// (`BuildCoordinator.waitAsync`'s `ownsForWaiter`).
//
// Within a task, a registration already on the task's own frames is a cycle (reported with the
// path); a chain deeper than `Container.maximumResolutionDepth` stops with `resolutionTooDeep`.

/// One async factory running: a link of a task's async resolution path. Immutable but for
/// ``lastReported``, which only the frame's own task touches.
final class AsyncFrame: @unchecked Sendable {
    let frame: ResolutionFrame
    let parent: AsyncFrame?
    /// The task that runs the factory, retained: its address is not reused while this frame
    /// exists. (A plain reference: the stdlib's `UnsafeCurrentTask` is resilient, and copying one
    /// goes through value witnesses.)
    private let task: AnyObject?
    /// The task's address: its node in the wait-for graph.
    let taskID: UInt
    /// The shared build the factory runs for (`nil` for a transient).
    let ticket: BuildTicket?
    /// Frames on the chain, this one included.
    let depth: Int
    /// The last failure a `resolveAsync` made inside this factory reported: the factory rethrowing
    /// it does not make the entry points it propagates through report it again.
    var lastReported: DIError?

    init(frame: ResolutionFrame, parent: AsyncFrame?, task: AnyObject?, ticket: BuildTicket?) {
        self.frame = frame
        self.parent = parent
        self.task = task
        taskID = AsyncResolutionPath.id(of: task)
        self.ticket = ticket
        depth = (parent?.depth ?? 0) + 1
    }

    /// The display names of the chain, outermost first.
    var pathNames: [String] {
        var names: [String] = []
        var current: AsyncFrame? = self
        while let frame = current {
            names.append(frame.frame.displayName)
            current = frame.parent
        }
        return names.reversed()
    }

    /// Whether the graph node `owner` stands for task `taskID` too: `owner` runs a build, open on
    /// this chain, that `taskID` (a child task) runs inside of. Asked under the coordinator's
    /// mutex, which guards `finished`.
    func isInsideBuild(ownedBy owner: ObjectIdentifier, taskID: UInt) -> Bool {
        var current: AsyncFrame? = self
        while let frame = current {
            if frame.taskID != taskID, let ticket = frame.ticket, !ticket.finished, ticket.owner == owner {
                return true
            }
            current = frame.parent
        }
        return false
    }
}

/// The task-local async resolution path.
enum AsyncResolutionPath {
    /// The innermost async factory running in (or inherited by) the current task.
    @TaskLocal static var top: AsyncFrame?

    /// The current task as an object (`resolveAsync` is async, so there always is one), retained.
    @inline(__always)
    static func currentTask() -> AnyObject? {
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: AnyObject.self) } }
    }

    /// A task's address: its node in the wait-for graph.
    @inline(__always)
    static func id(of task: AnyObject?) -> UInt { task.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0 }

    /// The current task's address.
    @inline(__always)
    static func currentTaskID() -> UInt { id(of: currentTask()) }

    /// The graph node of the task at `address`.
    @inline(__always)
    static func node(_ address: UInt) -> ObjectIdentifier { unsafeBitCast(address, to: ObjectIdentifier.self) }
}
