/// The memory of one slot, kept in its registry's slot arena.
///
/// The lock word is the first stored property, so its address is the slot's address (Swift lays
/// out a struct's stored properties in declaration order): the lock needs no allocation of its
/// own and sits on the same cache line as what it guards. Everything but `id` is guarded by it.
@usableFromInline
struct SlotStorage {
    @usableFromInline var lockWord: SlotLock.Word
    /// The registry key id (type metadata address or `Factory` key) the slot serves. Immutable
    /// once the slot is published.
    @usableFromInline let id: UInt
    @usableFromInline var unnamed: RegistrationRecord?
    /// Resolutions served by the current unnamed registration. Kept here, on the line the lock
    /// already writes, so counting a resolution writes no other cache line.
    @usableFromInline var unnamedResolutions: Int
    /// Named registrations with their resolution counts; a type rarely has more than a few.
    @usableFromInline var named: [NamedRegistration]

    /// Initializes the slot memory at `storage` (the lock word unlocked, no registrations).
    static func initialize(_ storage: UnsafeMutablePointer<SlotStorage>, id: UInt) {
        storage.initialize(to: SlotStorage(id: id))
        SlotLock.prepare(TypeSlot(storage: storage).lock.word)
    }

    private init(id: UInt) {
        lockWord = SlotLock.Word()
        self.id = id
        unnamed = nil
        unnamedResolutions = 0
        named = []
    }

    /// Distance between slots in the arena: one cache line, so two threads resolving different
    /// types never write the same line (the lock word and the count are written on every
    /// resolution).
    static var stride: Int { 64 }
}

/// A named registration in a slot and how many resolutions it served.
@usableFromInline
struct NamedRegistration {
    @usableFromInline var record: RegistrationRecord
    @usableFromInline var resolutions: Int
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

    /// Finds the registration for `name` and counts one resolution of it; call with the lock held
    /// and use the result only while holding the lock (the slot keeps it alive until then). The
    /// resolution path uses this unretained form so a look-up costs no retain/release pair.
    @inlinable @inline(__always)
    func findCountingResolution(named name: String?) -> Unmanaged<RegistrationRecord>? {
        guard let name else {
            guard let record = storage.pointee.unnamed else { return nil }
            storage.pointee.unnamedResolutions &+= 1
            return Unmanaged.passUnretained(record)
        }
        return findNamed(name, counting: true)
    }

    @inlinable
    func findNamed(_ name: String, counting: Bool) -> Unmanaged<RegistrationRecord>? {
        // Comparing a few small strings is cheaper than hashing; the entries are walked in place
        // (no copies, so no reference counting).
        storage.pointee.named.withUnsafeMutableBufferPointer { entries in
            var entry = entries.baseAddress
            let end = entry.map { $0 + entries.count }
            while let current = entry, current != end {
                if current.pointee.record.name == name {
                    if counting { current.pointee.resolutions &+= 1 }
                    return Unmanaged.passUnretained(current.pointee.record)
                }
                entry = current + 1
            }
            return nil
        }
    }

    /// The registration for `name`; call with the lock held.
    @inlinable
    func record(named name: String?) -> RegistrationRecord? {
        guard let name else { return storage.pointee.unnamed }
        return findNamed(name, counting: false)?.takeUnretainedValue()
    }

    /// How many resolutions `record` (a registration in this slot) served; call with the lock held.
    func resolutions(of record: RegistrationRecord) -> Int {
        if storage.pointee.unnamed === record { return storage.pointee.unnamedResolutions }
        return storage.pointee.named.first { $0.record === record }?.resolutions ?? 0
    }

    /// Replaces the registration for `name` (or removes it, with `nil`), returning the one it
    /// replaced; call with the lock held. A new registration counts its resolutions from zero.
    func setRecord(_ record: RegistrationRecord?, named name: String?) -> RegistrationRecord? {
        guard let name else {
            let old = storage.pointee.unnamed
            storage.pointee.unnamed = record
            storage.pointee.unnamedResolutions = 0
            return old
        }
        if let index = storage.pointee.named.firstIndex(where: { $0.record.name == name }) {
            let old = storage.pointee.named[index].record
            if let record {
                storage.pointee.named[index] = NamedRegistration(record: record, resolutions: 0)
            } else {
                storage.pointee.named.remove(at: index)
            }
            return old
        }
        if let record { storage.pointee.named.append(NamedRegistration(record: record, resolutions: 0)) }
        return nil
    }

    /// Sets every registration's resolution count back to zero; call with the lock held.
    func resetResolutionCounts() {
        storage.pointee.unnamedResolutions = 0
        for index in storage.pointee.named.indices { storage.pointee.named[index].resolutions = 0 }
    }

    /// Every registration in the slot; call with the lock held.
    var allRecords: [RegistrationRecord] {
        (storage.pointee.unnamed.map { [$0] } ?? []) + storage.pointee.named.map(\.record)
    }

    /// Whether the slot holds any registration; call with the lock held.
    var isEmpty: Bool { storage.pointee.unnamed == nil && storage.pointee.named.isEmpty }

    /// Removes every registration and returns them (to be released outside the lock); call with
    /// the lock held.
    func removeAll() -> [RegistrationRecord] {
        let records = allRecords
        storage.pointee.unnamed = nil
        storage.pointee.unnamedResolutions = 0
        storage.pointee.named = []
        return records
    }
}
