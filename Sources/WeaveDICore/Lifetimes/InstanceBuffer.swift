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
