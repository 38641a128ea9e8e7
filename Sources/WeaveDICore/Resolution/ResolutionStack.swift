import CWeaveDIShims

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One resolution in progress on the current thread, as slow paths (messages, the graph,
/// validation) see it.
package struct ResolutionFrame {
    package let key: RegistryKey
    let type: Any.Type
    let container: ObjectIdentifier

    init(key: RegistryKey, type: Any.Type, container: ObjectIdentifier) {
        self.key = key
        self.type = type
        self.container = container
    }

    package var displayName: String { ResolutionFrame.displayName(type, key.name) }

    package static func displayName(_ type: Any.Type, _ name: String?) -> String {
        let typeName = TypeNames.qualified(type)
        guard let name else { return typeName }
        return "\(typeName)[\"\(name)\"]"
    }
}

/// The chain of factories running on one thread, used to detect cycles, and what the slow paths
/// of the thread's resolutions remember (named edges, reported failures, tracking).
///
/// Factories are synchronous, so every nested resolution a factory performs happens on the thread
/// that runs it; a thread-local stack therefore sees the whole chain (a task-local would cost far
/// more). The resolution path finds the stack's ``ThreadStack`` header in a C thread-local
/// variable and uses it as a plain pointer; this object is reached from it only on slow paths. A
/// `pthread` key owns the stack, so it is freed when its thread exits. Only the owning thread
/// touches a stack, so unchecked exclusivity is safe.
@usableFromInline
package final class ResolutionStack {
    /// Entries, depth and the edge cache; owned by this object.
    @usableFromInline let header: UnsafeMutablePointer<ThreadStack.Header>
    /// Named edges this thread recorded lately (few: named nested resolutions are rare).
    @exclusivity(unchecked) var recentNamedEdges: [NamedEdge] = []
    /// How many resolutions on this thread chose a scope instance or a graph (see
    /// `Container.scopeInstance(for:requester:previous:)`): an `InjectedValues` default whose
    /// computation changed it depends on the scope instance current for its reader, so it is not
    /// kept.
    @exclusivity(unchecked) package var scopedResolutions = 0

    /// The last failure a public entry point reported on this thread while a factory ran, so the
    /// same failure rethrown by enclosing factories is not reported again (see `Container.report`).
    var reportedFailure: ReportedFailure?

    /// The resolution `resolveWithTracking` is timing on this thread, so the factory run inside
    /// it is not timed a second time.
    var tracked: TrackedResolution?

    /// The validation this thread runs, whose sandbox takes the resolutions asked of the
    /// validated containers (see `Container.divertResolutions`).
    var validation: ValidationDiversion?

    /// Factory durations measured while an outer factory still runs on this thread: the
    /// slow-resolution hooks hear them when the outermost resolution is done.
    var pendingTimings: [PendingTiming] = []

    /// The shared-instance builds this thread runs now (`Container.resolveShared`), outermost
    /// first, each with the stack index of its factory's frame. A cycle found on this thread's
    /// stack marks the ones on it, so their waiters on other threads get that cycle should they
    /// fail (see `Container.ownCycle(from:closingWith:name:stack:)`).
    @exclusivity(unchecked) var openBuilds: [(index: Int, ticket: BuildTicket)] = []

    /// The graph (`Scope.graph`) of the outermost synchronous resolution running on this thread,
    /// made by its first graph-scoped resolution; released when that resolution ends (the header's
    /// `hasGraph` tells the pop that ends it).
    var graph: ScopeInstance?

    init() {
        header = .allocate(capacity: 1)
        header.initialize(to: ThreadStack.Header(owner: nil))
        header.pointee.owner = Unmanaged.passUnretained(self)
    }

    deinit {
        header.pointee.deallocateBuffers()
        header.deallocate()
    }

    /// The thread's graph, started if there is none.
    func currentGraph() -> ScopeInstance {
        if let graph { return graph }
        let fresh = ScopeInstance(scope: .graph)
        graph = fresh
        header.pointee.hasGraph = true
        return fresh
    }

    /// Releases the thread's graph: its outermost resolution ended. Its instances are released
    /// after the field is cleared, so a deinit that resolves starts a graph of its own.
    func dropGraph() {
        let ended = graph
        graph = nil
        header.pointee.hasGraph = false
        withExtendedLifetime(ended) {}
    }

    /// A stable identifier of the current thread while it resolves.
    package var threadID: ObjectIdentifier { ObjectIdentifier(self) }

    /// The current thread's stack (made on first use).
    package static var current: ResolutionStack { ThreadStack.current.object }

    @usableFromInline
    static func makeCurrent() -> ThreadStack {
        let stack = ResolutionStack()
        // The thread-local slot owns the stack until the thread exits (see `releaseResolutionStack`).
        _ = Unmanaged.passRetained(stack)
        // The pthread key is what frees the stack when the thread exits; the thread-local variable
        // is what the resolution path reads.
        pthread_setspecific(resolutionStackKey, UnsafeMutableRawPointer(stack.header))
        weavedi_current_stack_set(UnsafeMutableRawPointer(stack.header))
        return ThreadStack(header: stack.header)
    }

    var depth: Int { header.pointee.depth }

    /// The frame at `index` (0 is the outermost), with its name.
    func frame(at index: Int) -> ResolutionFrame {
        let entry = header.pointee.base[index]
        return ResolutionFrame(
            key: RegistryKey(rawID: entry.id, name: entry.nameIndex < 0 ? nil : name(at: entry.nameIndex)),
            type: entry.type, container: entry.container)
    }

    /// The frames, outermost first (copies, for slow paths).
    var frames: [ResolutionFrame] { (0..<depth).map(frame(at:)) }

    /// The innermost frame: the factory whose resolution is in progress, if any.
    var top: ResolutionFrame? { depth == 0 ? nil : frame(at: depth - 1) }

    /// The name of the named entry at `index` (its ``StackEntry/nameIndex``).
    @usableFromInline
    func name(at index: Int) -> String { ThreadStack(header: header).name(at: index) }

    /// The readable cycle that resolving `key` from the current chain would close.
    func cyclePath(from index: Int, closingWith type: Any.Type, name: String?) -> [String] {
        (index..<depth).map { frame(at: $0).displayName } + [ResolutionFrame.displayName(type, name)]
    }

    package var path: [String] { frames.map(\.displayName) }

    // MARK: Reported failures (error paths only)

    /// Notes that `error` was reported at the current depth.
    func noteReported(_ error: DIError) {
        reportedFailure = depth == 0 ? nil : ReportedFailure(error: error, depth: depth, propagated: false)
    }

    /// Called when the factory on top of the stack throws `error`: if it is the failure reported
    /// inside that factory, it now belongs to the caller's depth.
    func notePropagation(of error: DIError) {
        guard let reported = reportedFailure, reported.depth == depth, reported.error.isSameFailure(as: error)
        else { return }
        reportedFailure = ReportedFailure(error: error, depth: depth - 1, propagated: true)
    }

    /// Whether `error` is a failure already reported inside a factory that rethrew it up to here.
    /// Consumes the mark: the failure may propagate further only through another factory.
    package func takePropagated(_ error: DIError) -> Bool {
        guard let reported = reportedFailure, reported.propagated, reported.depth == depth,
            reported.error.isSameFailure(as: error)
        else { return false }
        reportedFailure = depth == 0 ? nil : ReportedFailure(error: error, depth: depth, propagated: false)
        return true
    }
}

/// A graph edge with a name at either end that a thread recorded.
struct NamedEdge {
    let from: RegistryKey
    let to: RegistryKey
    let container: ObjectIdentifier
    let epoch: Int
}

/// A failure reported while a factory ran: `depth` is the stack depth it belongs to.
struct ReportedFailure {
    let error: DIError
    let depth: Int
    /// Whether a factory rethrew it to `depth` (rather than it being reported there).
    let propagated: Bool
}

/// A factory duration the slow-resolution hooks have not heard yet.
struct PendingTiming {
    let type: Any.Type
    let name: String?
    let seconds: Double
}

/// The resolution `resolveWithTracking` times: the frame at `depth` resolving `key`.
struct TrackedResolution {
    let key: RegistryKey
    let depth: Int
}

// The key's value is the stack's header; its owner is released when the thread exits (the
// destructor runs on that thread, so it also clears the thread-local variable: a resolution made
// by a later destructor on the same thread starts a fresh stack instead of reading a freed one).
#if canImport(Darwin)
    private func releaseResolutionStack(_ raw: UnsafeMutableRawPointer) {
        if weavedi_current_stack_get() == raw { weavedi_current_stack_set(nil) }
        raw.assumingMemoryBound(to: ThreadStack.Header.self).pointee.owner?.release()
    }
#else
    private func releaseResolutionStack(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        if weavedi_current_stack_get() == raw { weavedi_current_stack_set(nil) }
        raw.assumingMemoryBound(to: ThreadStack.Header.self).pointee.owner?.release()
    }
#endif

/// The key whose destructor frees a thread's stack when the thread exits.
let resolutionStackKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, releaseResolutionStack)
    precondition(
        status == 0,
        "WeaveDI could not create its thread-local resolution stack (pthread_key_create returned \(status)).")
    return key
}()

extension ResolutionStack {
    /// ``ThreadStack/rememberEdge(to:container:epoch:)`` for an edge with a name at either end.
    func rememberNamedEdge(from: RegistryKey, to: RegistryKey, container: ObjectIdentifier, epoch: Int) -> Bool {
        for edge in recentNamedEdges
        where edge.from == from && edge.to == to && edge.container == container && edge.epoch == epoch {
            return false
        }
        if recentNamedEdges.count == 8 { recentNamedEdges.removeFirst() }
        recentNamedEdges.append(NamedEdge(from: from, to: to, container: container, epoch: epoch))
        return true
    }
}
