/// The immutable key of a slot and the head of its registrations.
@usableFromInline
struct SlotHeader {
    /// The registry key id (type metadata address or `Factory` key) the slot serves.
    @usableFromInline let id: UInt
    /// The slot's registrations, linked through `RegistrationRecord.nextInSlot`; the unnamed one,
    /// when present, is always first so an unnamed lookup reads one pointer. Guarded by the lock.
    @usableFromInline var head: RegistrationRecord?
}

/// Everything registered for one type (or `Factory` key): the unnamed registration and any named
/// ones. A slot, once created, lives as long as its registry, so readers may hold it unretained.
///
/// The slot is one allocation holding its key, the head of its registration list and its lock
/// word (a `ManagedBuffer` with the lock word as its single tail element): a registration costs no
/// separate lock allocation, and the lock sits on the same cache line as what it guards.
@usableFromInline
final class TypeSlot: ManagedBuffer<SlotHeader, SlotLock.Word> {
    static func make(id: UInt) -> TypeSlot {
        let buffer = TypeSlot.create(minimumCapacity: 1) { _ in SlotHeader(id: id, head: nil) }
        let slot = unsafeDowncast(buffer, to: TypeSlot.self)
        slot.withUnsafeMutablePointerToElements { $0.initialize(to: SlotLock.unlockedWord) }
        return slot
    }

    // The header is read and written through its pointer: `ManagedBuffer.header` is a class
    // property, whose accesses pay a dynamic exclusivity check (about 40 instructions) each. The
    // slot lock (or, for the immutable id, publication through the table) makes them safe.

    @inlinable
    var id: UInt { withUnsafeMutablePointerToHeader { $0.pointee.id } }

    /// The first registration (the unnamed one when there is one); call with the lock held.
    @inlinable
    var head: RegistrationRecord? {
        get { withUnsafeMutablePointerToHeader { $0.pointee.head } }
        set { withUnsafeMutablePointerToHeader { $0.pointee.head = newValue } }
    }

    /// The slot's lock. The word lives inside this object, which never moves, so the pointer stays
    /// valid for the slot's lifetime (the registry's).
    @inlinable
    var lock: SlotLock { SlotLock(word: withUnsafeMutablePointerToElements { $0 }) }

    /// The registration for `name`, unretained; call with the lock held and use it only while
    /// holding the lock (the slot keeps it alive until then). The resolution path uses this form
    /// so a look-up costs no retain/release pair.
    @inlinable @inline(__always)
    func unretainedRecord(named name: String?) -> Unmanaged<RegistrationRecord>? {
        withUnsafeMutablePointerToHeader { header in
            guard let first = header.pointee.head else { return nil }
            var current = Unmanaged.passUnretained(first)
            // The unnamed registration, when there is one, is first.
            guard let name else { return current._withUnsafeGuaranteedRef { $0.name == nil } ? current : nil }
            // A type rarely has more than a few names; comparing small strings beats hashing.
            while true {
                let (matches, next) = current._withUnsafeGuaranteedRef { record in
                    (record.name == name, record.nextInSlot.map { Unmanaged.passUnretained($0) })
                }
                if matches { return current }
                guard let next else { return nil }
                current = next
            }
        }
    }

    /// The registration for `name`; call with the lock held.
    @inlinable
    func record(named name: String?) -> RegistrationRecord? {
        unretainedRecord(named: name)?.takeUnretainedValue()
    }

    /// Replaces the registration for `name` (or removes it, with `nil`), returning the one it
    /// replaced; call with the lock held.
    func setRecord(_ record: RegistrationRecord?, named name: String?) -> RegistrationRecord? {
        var previous: RegistrationRecord?
        var current = head
        while let existing = current, existing.name != name {
            previous = existing
            current = existing.nextInSlot
        }
        let next = current?.nextInSlot
        if let record {
            if current != nil {
                record.nextInSlot = next
                link(previous, to: record)
            } else if name == nil {
                // The unnamed registration goes first.
                record.nextInSlot = head
                head = record
            } else {
                record.nextInSlot = nil
                link(previous, to: record)
            }
        } else if current != nil {
            link(previous, to: next)
        }
        current?.nextInSlot = nil
        return current
    }

    private func link(_ previous: RegistrationRecord?, to record: RegistrationRecord?) {
        if let previous { previous.nextInSlot = record } else { head = record }
    }

    /// Every registration in the slot; call with the lock held.
    var allRecords: [RegistrationRecord] {
        var result: [RegistrationRecord] = []
        var current = head
        while let record = current {
            result.append(record)
            current = record.nextInSlot
        }
        return result
    }

    /// Whether the slot holds any registration; call with the lock held.
    var isEmpty: Bool { head == nil }

    /// Removes every registration and returns them (to be released outside the lock); call with
    /// the lock held.
    func removeAll() -> [RegistrationRecord] {
        let records = allRecords
        for record in records { record.nextInSlot = nil }
        head = nil
        return records
    }
}
