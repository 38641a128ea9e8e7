/// The memory of one slot, kept in its registry's slot arena.
///
/// The lock word is the first stored property, so its address is the slot's address (Swift lays
/// out a struct's stored properties in declaration order): the lock needs no allocation of its
/// own and sits on the same cache line as what it guards.
@usableFromInline
struct SlotStorage {
    @usableFromInline var lockWord: SlotLock.Word
    /// The registry key id (type metadata address or `Factory` key) the slot serves. Immutable
    /// once the slot is published.
    @usableFromInline let id: UInt
    /// The slot's registrations, linked through `RegistrationRecord.nextInSlot`; the unnamed one,
    /// when present, is always first so an unnamed look-up reads one pointer. Guarded by the lock.
    @usableFromInline var head: RegistrationRecord?

    /// Initializes the slot memory at `storage` (the lock word unlocked, no registrations).
    static func initialize(_ storage: UnsafeMutablePointer<SlotStorage>, id: UInt) {
        storage.initialize(to: SlotStorage(id: id))
        SlotLock.prepare(TypeSlot(storage: storage).lock.word)
    }

    private init(id: UInt) {
        lockWord = SlotLock.Word()
        self.id = id
        head = nil
    }
}

/// Everything registered for one type (or `Factory` key): the unnamed registration and any named
/// ones.
///
/// A `TypeSlot` is a pointer into its registry's slot arena. Slots are never freed before their
/// registry, so a slot found in the table stays valid for as long as the container is alive, and
/// using one costs no reference counting. Slots are allocated in chunks (no allocation of its own
/// per registered type), which is what keeps a registration to one allocation: its record.
@usableFromInline
struct TypeSlot {
    @usableFromInline let storage: UnsafeMutablePointer<SlotStorage>

    @inlinable @inline(__always)
    init(storage: UnsafeMutablePointer<SlotStorage>) { self.storage = storage }

    @inlinable
    var id: UInt { storage.pointee.id }

    /// The slot's lock; its word is the storage's first field.
    @inlinable
    var lock: SlotLock { SlotLock(word: UnsafeMutableRawPointer(storage).assumingMemoryBound(to: SlotLock.Word.self)) }

    /// The first registration (the unnamed one when there is one); call with the lock held.
    @inlinable
    var head: RegistrationRecord? {
        get { storage.pointee.head }
        nonmutating set { storage.pointee.head = newValue }
    }

    /// The registration for `name`, unretained; call with the lock held and use it only while
    /// holding the lock (the slot keeps it alive until then). The resolution path uses this form
    /// so a look-up costs no retain/release pair.
    @inlinable @inline(__always)
    func unretainedRecord(named name: String?) -> Unmanaged<RegistrationRecord>? {
        guard let first = storage.pointee.head else { return nil }
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
