#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One resolution in progress on the current thread.
@usableFromInline
struct ResolutionFrame {
    @usableFromInline let key: RegistryKey
    @usableFromInline let type: Any.Type
    @usableFromInline let container: ObjectIdentifier

    @inlinable
    init(key: RegistryKey, type: Any.Type, container: ObjectIdentifier) {
        self.key = key
        self.type = type
        self.container = container
    }

    var displayName: String { ResolutionFrame.displayName(type, key.name) }

    static func displayName(_ type: Any.Type, _ name: String?) -> String {
        let typeName = String(reflecting: type)
        guard let name else { return typeName }
        return "\(typeName)[\"\(name)\"]"
    }
}

/// The chain of factories running on one thread, used to detect cycles.
///
/// Factories are synchronous, so every nested resolution a factory performs happens on the thread
/// that runs it; a thread-local stack therefore sees the whole chain. It lives in `pthread`
/// thread-local storage because a lookup there costs a few nanoseconds, far less than a task-local.
///
/// The frames are a manually managed buffer rather than an `Array`: every factory run pushes and
/// pops one, and the buffer skips the uniqueness and exclusivity checks an array property pays.
/// Only the owning thread touches a stack, so unchecked exclusivity is safe.
@usableFromInline
final class ResolutionStack {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<ResolutionFrame>
    /// Number of frames: factories running on this thread right now.
    @exclusivity(unchecked) @usableFromInline var depth = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int

    @usableFromInline
    struct RecentEdge {
        let from: RegistryKey
        let to: RegistryKey
        let container: ObjectIdentifier
        let epoch: Int
    }

    /// Edges this thread recorded lately (see `Container.noteEdge`).
    @exclusivity(unchecked) @usableFromInline var recentEdges: [RecentEdge] = []

    /// The last failure a public entry point reported on this thread while a factory ran, so the
    /// same failure rethrown by enclosing factories is not reported again (see `Container.report`).
    var reportedFailure: ReportedFailure?

    /// The resolution `resolveWithTracking` is timing on this thread, so the factory run inside
    /// it is not timed a second time.
    var tracked: TrackedResolution?

    init() {
        capacity = 16
        base = .allocate(capacity: 16)
    }

    deinit {
        base.deinitialize(count: depth)
        base.deallocate()
    }

    /// A stable identifier of the current thread while it resolves.
    @inlinable var threadID: ObjectIdentifier { ObjectIdentifier(self) }

    @inlinable @inline(__always)
    static var current: ResolutionStack {
        if let raw = pthread_getspecific(resolutionStackKey) {
            return Unmanaged<ResolutionStack>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    /// The current thread's stack, unretained (the thread-local slot owns it until the thread
    /// exits), found through `key` (``resolutionStackKey``, which containers keep a copy of so the
    /// hot path skips the lazy global's accessor).
    @inlinable @inline(__always)
    static func unretainedCurrent(_ key: pthread_key_t) -> Unmanaged<ResolutionStack> {
        if let raw = pthread_getspecific(key) { return Unmanaged.fromOpaque(raw) }
        return Unmanaged.passUnretained(makeCurrent())
    }

    /// Whether a factory is running on the current thread (without creating a stack).
    @inlinable @inline(__always)
    static func isResolving(_ key: pthread_key_t) -> Bool {
        guard let raw = pthread_getspecific(key) else { return false }
        return Unmanaged<ResolutionStack>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.depth != 0 }
    }

    @usableFromInline
    static func makeCurrent() -> ResolutionStack {
        let stack = ResolutionStack()
        pthread_setspecific(resolutionStackKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// The frames, outermost first (a copy, for slow paths).
    var frames: [ResolutionFrame] { Array(UnsafeBufferPointer(start: base, count: depth)) }

    /// The innermost frame: the factory whose resolution is in progress, if any.
    @inlinable
    var top: ResolutionFrame? { depth == 0 ? nil : base[depth - 1] }

    @inlinable @inline(__always)
    func push(_ frame: ResolutionFrame) {
        if depth == capacity { grow() }
        (base + depth).initialize(to: frame)
        depth += 1
    }

    @inlinable @inline(__always)
    func pop() {
        depth -= 1
        (base + depth).deinitialize(count: 1)
    }

    @usableFromInline
    func grow() {
        let larger = UnsafeMutablePointer<ResolutionFrame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: depth)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Returns the index of `key` in the chain when resolving it now would close a cycle.
    @inlinable @inline(__always)
    func indexOf(_ key: RegistryKey, in container: ObjectIdentifier) -> Int? {
        // Typical chains are a few frames deep: a linear scan beats any set. Ids are compared
        // first so names are compared only on a real match.
        var index = depth - 1
        while index >= 0 {
            let frame = base + index
            if frame.pointee.key.id == key.id && frame.pointee.container == container
                && frame.pointee.key.name == key.name {
                return index
            }
            index -= 1
        }
        return nil
    }

    /// The readable cycle that resolving `key` from the current chain would close.
    @usableFromInline
    func cyclePath(from index: Int, closingWith type: Any.Type, name: String?) -> [String] {
        frames[index...].map(\.displayName) + [ResolutionFrame.displayName(type, name)]
    }

    var path: [String] { frames.map(\.displayName) }

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
    func takePropagated(_ error: DIError) -> Bool {
        guard let reported = reportedFailure, reported.propagated, reported.depth == depth,
              reported.error.isSameFailure(as: error)
        else { return false }
        reportedFailure = depth == 0 ? nil : ReportedFailure(error: error, depth: depth, propagated: false)
        return true
    }
}

/// A failure reported while a factory ran: `depth` is the stack depth it belongs to.
struct ReportedFailure {
    let error: DIError
    let depth: Int
    /// Whether a factory rethrew it to `depth` (rather than it being reported there).
    let propagated: Bool
}

/// The resolution `resolveWithTracking` times: the frame at `depth` resolving `key`.
struct TrackedResolution {
    let key: RegistryKey
    let depth: Int
}

#if canImport(Darwin)
private func releaseResolutionStack(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<ResolutionStack>.fromOpaque(raw).release()
}
#else
private func releaseResolutionStack(_ raw: UnsafeMutableRawPointer?) {
    if let raw { Unmanaged<ResolutionStack>.fromOpaque(raw).release() }
}
#endif

@usableFromInline
let resolutionStackKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, releaseResolutionStack)
    precondition(status == 0, "WeaveDI could not create its thread-local resolution stack (pthread_key_create returned \(status)).")
    return key
}()
