import Atomics

// Concurrency model (Reliability/ConcurrencyModel article, "Async factories"): an async factory
// may suspend and resume on another thread, so its resolution path cannot live on a thread's
// stack. It travels with the task instead: a task-local chain of immutable `AsyncFrame`s, one per
// async factory running, bound with `TaskLocal.withValue` around the factory's call. Child tasks
// (`async let`, task groups, `Task {}`) inherit the chain.
//
// A task's node in the one wait-for graph is an `AsyncNode`, made by the task's outermost async
// resolution that needs one and closed when that resolution returns. A frame's node says which
// task pushed it: a task finding on top of its chain a frame of an open node of its own address
// is inside its own factory (same node); otherwise the chain was inherited from a parent task,
// and the task gets a node of its own, remembering the shared builds open along the inherited
// chain (`inheritedBuilds`): the parent awaits this task inside those builds, so a chain of
// waits leading back to their owner is a cycle (`BuildCoordinator.waitAsync`). A node is closed
// (atomically) before its task can end, so a later task reusing the address never takes it for
// its own.
//
// Within a task, a registration already on the task's own frames is a cycle (reported with the
// path); a chain deeper than `Container.maximumResolutionDepth` stops with `resolutionTooDeep`.

/// A task's node in the wait-for graph (see above).
final class AsyncNode: @unchecked Sendable {
    /// The address of the task the node stands for (while open).
    let task: UInt
    /// The shared builds open on the chain this task inherited when it made the node.
    let inheritedBuilds: [BuildTicket]
    /// The last failure a public entry reported in this task (read and written by the task only):
    /// a factory rethrowing it is not reported again.
    var lastReported: DIError?
    private let closed = ManagedAtomic<Bool>(false)

    init(task: UInt, inheritedBuilds: [BuildTicket]) {
        self.task = task
        self.inheritedBuilds = inheritedBuilds
    }

    var isClosed: Bool { closed.load(ordering: .acquiring) }

    func close() { closed.store(true, ordering: .releasing) }

    /// Whether the graph node `owner` stands for this task too: it owns a build this task runs
    /// inside of. Asked under the coordinator's mutex (which guards `finished`).
    func isInsideBuild(ownedBy owner: ObjectIdentifier) -> Bool {
        inheritedBuilds.contains { !$0.finished && $0.owner == owner }
    }
}

/// One async factory running: a link of a task's async resolution path. Immutable.
final class AsyncFrame: @unchecked Sendable {
    let frame: ResolutionFrame
    let parent: AsyncFrame?
    /// The task that runs the factory.
    let node: AsyncNode
    /// The shared build the factory runs for (`nil` for a transient).
    let ticket: BuildTicket?
    /// Frames on the chain, this one included.
    let depth: Int

    init(frame: ResolutionFrame, parent: AsyncFrame?, node: AsyncNode, ticket: BuildTicket?) {
        self.frame = frame
        self.parent = parent
        self.node = node
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
}

/// The task-local async resolution path.
enum AsyncResolutionPath {
    /// The innermost async factory running in (or inherited by) the current task.
    @TaskLocal static var top: AsyncFrame?

    /// The current task's address.
    @inline(__always)
    static func currentTask() -> UInt {
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
    }

    /// The current task's node: the one on `top` when it is this task's and open, else a new
    /// one (`isNew`), which the caller closes when its resolution returns.
    static func node(under top: AsyncFrame?) -> (node: AsyncNode, isNew: Bool) {
        let task = currentTask()
        if let top, top.node.task == task, !top.node.isClosed { return (top.node, false) }
        var inherited: [BuildTicket] = []
        var current = top
        while let frame = current {
            if let ticket = frame.ticket { inherited.append(ticket) }
            current = frame.parent
        }
        return (AsyncNode(task: task, inheritedBuilds: inherited), true)
    }
}
