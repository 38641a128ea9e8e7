import Atomics

/// A value published once and read without locks afterwards: the storage behind ``Inject`` and
/// ``RequiredInject``.
///
/// The first successful publish wins; later ones are discarded and their callers get the kept
/// value. A read is one acquiring load of a pointer and a nil check, so an injected property
/// costs about as much as a stored one once resolved.
@usableFromInline
final class WriteOnceCell<Value>: @unchecked Sendable {
    /// Immutable once created, so readers may use it without further synchronisation.
    @usableFromInline
    final class Holder {
        @usableFromInline let value: Value

        init(_ value: Value) { self.value = value }
    }

    @usableFromInline typealias Storage = AtomicsOptionalStorage<Unmanaged<Holder>>

    /// Must stay the only stored property: ``pointer`` addresses it as the object's first field.
    @usableFromInline var storage: Storage

    @usableFromInline
    init() { storage = Storage(nil) }

    deinit {
        if let holder = pointer.pointee.dispose() { holder.release() }
    }

    @inlinable @inline(__always)
    var pointer: UnsafeMutablePointer<Storage> {
        _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Storage.self)
    }

    /// The published value, or `nil` before the first publish.
    @inlinable @inline(__always)
    var value: Value? {
        guard let holder = Storage.atomicLoad(at: pointer, ordering: .acquiring) else { return nil }
        return holder._withUnsafeGuaranteedRef { $0.value }
    }

    /// Publishes `candidate` unless a value was published first; returns the value that is kept.
    @usableFromInline
    func publish(_ candidate: Value) -> Value {
        let fresh = Unmanaged.passRetained(Holder(candidate))
        let (exchanged, current) = Storage.atomicCompareExchange(
            expected: nil, desired: fresh, at: pointer, ordering: .acquiringAndReleasing)
        if exchanged { return candidate }
        fresh.release()
        guard let current else { return candidate }
        return current._withUnsafeGuaranteedRef { $0.value }
    }
}

/// The swift-atomics storage of an optional `Wrapped` (spelled through the protocol, because the
/// standard library's Synchronization module declares a member of the same name).
@usableFromInline
typealias AtomicsOptionalStorage<Wrapped: Atomics.AtomicOptionalWrappable> = Wrapped.AtomicOptionalRepresentation
