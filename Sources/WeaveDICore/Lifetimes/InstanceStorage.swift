import Atomics

/// What a shared instance (singleton, weak, or one per scope instance) is kept in, and its build
/// in progress. Guarded by the lock of whatever owns it (a registry slot or a scope instance).
///
/// Build states (see the concurrency model): *empty* (no instance, no ticket) → *building* (a
/// ticket, whose owner runs the factory) → *built* (an instance) or, when the factory fails, back
/// to *empty*. A weak instance that died is *empty* again. A scope cell can also be *abandoned*
/// (its scope instance ended): nothing is stored in it any more.
@usableFromInline
protocol InstanceStorage: AnyObject {
    /// The instance, if built and (for weak storage) still alive; `T` is the registered type.
    func cached<T>(as type: T.Type) -> T?
    /// The build in progress, if any.
    var ticket: BuildTicket? { get set }
    /// Keeps `value`, which the caller just built.
    func store<T>(_ value: T)
    /// Whether the storage was given up (an ended scope instance's cell): a build finishing
    /// then keeps nothing, and waiters look for the current storage again.
    var isAbandoned: Bool { get }
}

extension InstanceStorage {
    @usableFromInline var isAbandoned: Bool { false }
}

/// Holds the instance of a scoped registration in one scope instance.
@usableFromInline
final class InstanceCell: InstanceStorage {
    /// The instance, once `hasInstance`.
    @exclusivity(unchecked) @usableFromInline var instance = InstanceBuffer()
    @exclusivity(unchecked) @usableFromInline var hasInstance = false
    @exclusivity(unchecked) @usableFromInline var ticket: BuildTicket?
    /// Set when the scope instance ends: a build still running then keeps nothing here.
    @exclusivity(unchecked) @usableFromInline var isAbandoned = false
    /// Set (under the scope instance's lock) when the scope instance holding this cell ended with
    /// ``ScopeInstance/end(reason:)`` while the cell was current or being built: a build
    /// finishing afterwards disposes its instance (``unkeptDisposal(of:)``).
    @exclusivity(unchecked) var endedScope: (ScopeInstance, DisposalReason)?
    /// When the instance was stored (``InstanceCreationOrder``).
    @exclusivity(unchecked) var creationOrder: UInt64 = 0
    /// Whether ``Container/disposeSingletons(where:)`` disposed the instance (an async
    /// singleton's cell); guarded by the slot lock.
    @exclusivity(unchecked) var isDisposed = false
    /// The registration the instance belongs to (``ScopedRecord/uniqueID``).
    let recordID: UInt64
    /// The registered type (to destroy the instance).
    private let type: Any.Type

    init(recordID: UInt64, type: Any.Type) {
        self.recordID = recordID
        self.type = type
    }

    /// The instance as an `AsyncDisposable`, if it is built and conforms.
    func disposable() -> (any AsyncDisposable)? {
        guard hasInstance else { return nil }
        func read<T>(_: T.Type) -> (any AsyncDisposable)? { cached(as: T.self) as? any AsyncDisposable }
        return _openExistential(type, do: read)
    }

    deinit {
        if hasInstance { withUnsafeMutablePointer(to: &instance) { $0.destroy(type: type) } }
    }

    @inlinable
    func cached<T>(as _: T.Type) -> T? {
        guard hasInstance else { return nil }
        return withUnsafeMutablePointer(to: &instance) { $0.value(as: T.self) }
    }

    @usableFromInline
    func store<T>(_ value: T) {
        assert(!hasInstance, "a scope instance's instance is stored once")
        withUnsafeMutablePointer(to: &instance) { $0.store(value) }
        hasInstance = true
        creationOrder = InstanceCreationOrder.next()
    }
}

/// Room for a shared instance (singleton, or one per scope instance) inside the object that owns
/// it, without that object being generic: the instance's bytes are stored in place when they fit
/// in ``inlineCapacity`` (a class reference, or a protocol existential such as `any Logging`),
/// and in a ``ValueBox`` otherwise.
///
/// The owner records whether it holds an instance, guards it with its lock, and destroys it in its
/// deinit. Only code that knows the instance's type reads or writes it, through a pointer to the
/// buffer (the owner's stored property), so a built singleton is read with the same loads as a
/// typed stored property.
@usableFromInline
struct InstanceBuffer {
    @usableFromInline var words: (UInt, UInt, UInt, UInt, UInt)

    init() { words = (0, 0, 0, 0, 0) }

    /// Bytes an instance can have and still be stored in place.
    @inlinable static var inlineCapacity: Int { MemoryLayout<(UInt, UInt, UInt, UInt, UInt)>.size }

    /// Whether a `T` is stored in place (a constant once `T` is known).
    @inlinable @inline(__always)
    static func storesInPlace<T>(_: T.Type) -> Bool {
        MemoryLayout<T>.size <= inlineCapacity && MemoryLayout<T>.alignment <= MemoryLayout<UInt>.alignment
    }
}

extension UnsafeMutablePointer where Pointee == InstanceBuffer {
    /// The instance the buffer holds; `T` must be the type it was stored as.
    @inlinable @inline(__always)
    func value<T>(as _: T.Type) -> T {
        let raw = UnsafeRawPointer(self)
        if InstanceBuffer.storesInPlace(T.self) { return raw.assumingMemoryBound(to: T.self).pointee }
        return raw.assumingMemoryBound(to: ValueBox<T>.self).pointee.value
    }

    /// Stores `value` in the empty buffer.
    @usableFromInline
    func store<T>(_ value: T) {
        let raw = UnsafeMutableRawPointer(self)
        if InstanceBuffer.storesInPlace(T.self) {
            raw.initializeMemory(as: T.self, repeating: value, count: 1)
        } else {
            raw.initializeMemory(as: ValueBox<T>.self, repeating: ValueBox(value), count: 1)
        }
    }

    /// Destroys the instance the buffer holds; `type` must be the type it was stored as.
    func destroy(type: Any.Type) {
        func destroy<T>(_: T.Type) {
            let raw = UnsafeMutableRawPointer(self)
            if InstanceBuffer.storesInPlace(T.self) {
                raw.assumingMemoryBound(to: T.self).deinitialize(count: 1)
            } else {
                raw.assumingMemoryBound(to: ValueBox<T>.self).deinitialize(count: 1)
            }
        }
        _openExistential(type, do: destroy)
    }
}
