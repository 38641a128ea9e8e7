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
@usableFromInline
final class ResolutionStack {
    @usableFromInline var frames: [ResolutionFrame] = []

    @usableFromInline
    struct RecentEdge {
        let from: RegistryKey
        let to: RegistryKey
        let container: ObjectIdentifier
        let epoch: Int
    }

    /// The frame depth `resolveWithTracking` is timing (0 when none).
    @usableFromInline var trackedDepth = 0

    /// Edges this thread recorded lately (see `Container.noteEdge`).
    @usableFromInline var recentEdges: [RecentEdge] = []

    init() { frames.reserveCapacity(16) }

    /// A stable identifier of the current thread while it resolves.
    @inlinable var threadID: ObjectIdentifier { ObjectIdentifier(self) }

    @inlinable @inline(__always)
    static var current: ResolutionStack {
        if let raw = pthread_getspecific(resolutionStackKey) {
            return Unmanaged<ResolutionStack>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCurrent()
    }

    @usableFromInline
    static func makeCurrent() -> ResolutionStack {
        let stack = ResolutionStack()
        pthread_setspecific(resolutionStackKey, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }

    /// Returns the index of `key` in the chain when resolving it now would close a cycle.
    @inlinable @inline(__always)
    func indexOf(_ key: RegistryKey, in container: ObjectIdentifier) -> Int? {
        // Typical chains are a few frames deep: a linear scan beats any set.
        var index = frames.count - 1
        while index >= 0 {
            let frame = frames[index]
            if frame.key == key && frame.container == container { return index }
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
