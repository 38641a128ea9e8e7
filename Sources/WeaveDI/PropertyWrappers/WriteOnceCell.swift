import Atomics
import WeaveDICore

/// A value published once and read without locks afterwards: the storage behind ``Inject`` and
/// ``RequiredInject``, together with what the wrapper needs to resolve it.
///
/// The first successful publish wins; later ones are discarded and their callers get the kept
/// value. A read is one acquiring load of a pointer and a nil check. The wrapper holds nothing but
/// a reference to this cell, so reading the wrapped property copies one reference, no more.
@usableFromInline
final class WriteOnceCell<Value>: @unchecked Sendable {
    /// Immutable once created, so readers may use it without further synchronisation.
    @usableFromInline
    final class Holder {
        @usableFromInline let value: Value

        init(_ value: Value) { self.value = value }
    }

    @usableFromInline typealias Storage = AtomicsOptionalStorage<Unmanaged<Holder>>

    /// Must stay the first stored property: ``pointer`` addresses it as the object's first field.
    @usableFromInline var storage: Storage
    /// The registration name the owner asked for.
    let name: String?
    /// The type that declares the property (for trap messages).
    let owner: String
    /// Where the property is declared (for trap messages).
    let file: StaticString
    let line: UInt

    init(name: String?, owner: String = "", file: StaticString = "", line: UInt = 0) {
        storage = Storage(nil)
        self.name = name
        self.owner = owner
        self.file = file
        self.line = line
        assert(
            withUnsafeMutablePointer(to: &storage) { UnsafeMutableRawPointer($0) } == UnsafeMutableRawPointer(pointer),
            "WriteOnceCell.storage must be the first stored property")
    }

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
        guard let holder = WriteOnceCell.published(at: pointer) else { return nil }
        return holder._withUnsafeGuaranteedRef { $0.value }
    }

    /// The holder published at `pointer`, if any.
    ///
    /// Declared read-only and kept out of line on purpose: an atomic load inlined into a
    /// wrapper's getter counts, for the optimizer, as a possible write to the owner's storage,
    /// which makes it copy (retain and release) the wrapper on every access. The load only reads,
    /// and the cell is written once, so a load the optimizer reuses or hoists still sees either
    /// nothing (and the caller takes the slow path) or the one value the cell will ever hold.
    @_effects(readonly) @inline(never) @usableFromInline
    static func published(at pointer: UnsafeMutablePointer<Storage>) -> Unmanaged<Holder>? {
        Storage.atomicLoad(at: pointer, ordering: .acquiring)
    }

    /// Publishes `candidate` unless a value was published first; returns the value that is kept.
    func publish(_ candidate: Value) -> Value {
        let fresh = Unmanaged.passRetained(Holder(candidate))
        let (exchanged, current) = Storage.atomicCompareExchange(
            expected: nil, desired: fresh, at: pointer, ordering: .acquiringAndReleasing)
        if exchanged { return candidate }
        fresh.release()
        guard let current else { return candidate }
        return current._withUnsafeGuaranteedRef { $0.value }
    }

    /// Where the property is declared.
    var site: RegistrationSite { RegistrationSite(fileID: "\(file)", line: Int(line)) }
}

/// The swift-atomics storage of an optional `Wrapped` (spelled through the protocol, because the
/// standard library's Synchronization module declares a member of the same name).
@usableFromInline
typealias AtomicsOptionalStorage<Wrapped: Atomics.AtomicOptionalWrappable> = Wrapped.AtomicOptionalRepresentation
