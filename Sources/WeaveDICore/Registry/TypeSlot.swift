/// The memory of one slot, kept in its registry's slot arena.
///
/// Each slot is one cache line: a header of ``headerSize`` bytes (the lock word, then the key id),
/// then this struct, so the lock needs no allocation of its own and sits on the same line as what
/// it guards. Everything in the struct is guarded by the lock. The lock word and the id live
/// outside the struct because they are read without the lock (the id by every table probe), and
/// ThreadSanitizer counts a Swift access to any field of a struct as an access to all of it.
@usableFromInline
struct SlotStorage {
    @usableFromInline var unnamed: RegistrationRecord?
    /// Resolutions served by the current unnamed registration. Kept here, on the line the lock
    /// already writes, so counting a resolution writes no other cache line.
    @usableFromInline var unnamedResolutions: Int
    /// When the current unnamed registration was made (the registry's registration counter).
    @usableFromInline var unnamedSequence: Int
    /// Named registrations with their resolution counts; a type rarely has more than a few.
    @usableFromInline var named: [NamedRegistration]
    /// Positions in `named` by name, kept once a type has more than `indexThreshold` names, so
    /// thousands of names on one type stay linear to register and constant to look up.
    @usableFromInline var namedIndex: [String: Int]?

    /// Below this many names a linear walk beats hashing the name.
    @usableFromInline static var indexThreshold: Int { 16 }

    /// Bytes before the struct in a slot: the lock word (padded to 8 bytes), then the key id.
    @usableFromInline static var headerSize: Int { 16 }
    /// Where the key id (type metadata address or `Factory` key) sits, from the struct's start.
    /// Written before the slot is published and never again.
    @usableFromInline static var idOffset: Int { -8 }
    /// Where the lock word sits, from the struct's start.
    @usableFromInline static var lockOffset: Int { -16 }

    /// Initializes the slot whose line starts at `slot` (the lock word unlocked, no
    /// registrations) and returns its storage.
    static func initialize(slot: UnsafeMutableRawPointer, id: UInt) -> UnsafeMutablePointer<SlotStorage> {
        assert(
            MemoryLayout<SlotLock.Word>.size <= 8 && headerSize + MemoryLayout<SlotStorage>.size <= stride,
            "a slot must fit its cache line")
        let storage = (slot + headerSize).bindMemory(to: SlotStorage.self, capacity: 1)
        SlotLock.prepare((slot + headerSize + lockOffset).bindMemory(to: SlotLock.Word.self, capacity: 1))
        (slot + headerSize + idOffset).bindMemory(to: UInt.self, capacity: 1).initialize(to: id)
        storage.initialize(to: SlotStorage())
        return storage
    }

    private init() {
        unnamed = nil
        unnamedResolutions = 0
        unnamedSequence = 0
        named = []
        namedIndex = nil
    }

    /// Distance between slots in the arena: one cache line, so two threads resolving different
    /// types never write the same line (the lock word and the count are written on every
    /// resolution).
    static var stride: Int { 64 }
}

/// A named registration in a slot, how many resolutions it served, and when it was made.
@usableFromInline
struct NamedRegistration {
    @usableFromInline var record: RegistrationRecord
    @usableFromInline var resolutions: Int
    @usableFromInline var sequence: Int
}

/// Everything registered for one type (or `Factory` key): the unnamed registration and any named
/// ones.
///
/// A `TypeSlot` is a pointer into its registry's slot arena. Slots are never freed before their
/// registry, so a slot found in the table stays valid for as long as the container is alive, and
/// using one costs no reference counting. Slots are allocated in chunks (no allocation of its own
/// per registered type), which is what keeps a registration to one allocation: its record.
@usableFromInline
package struct TypeSlot {
    @usableFromInline let storage: UnsafeMutablePointer<SlotStorage>

    @inlinable @inline(__always)
    init(storage: UnsafeMutablePointer<SlotStorage>) { self.storage = storage }

    /// The registry key id the slot serves (immutable, so read without the lock).
    @inlinable
    package var id: UInt { UnsafeRawPointer(storage).load(fromByteOffset: SlotStorage.idOffset, as: UInt.self) }

    /// The slot's lock; its word starts the slot's cache line.
    @inlinable
    package var lock: SlotLock {
        SlotLock(
            word: (UnsafeMutableRawPointer(storage) + SlotStorage.lockOffset).assumingMemoryBound(
                to: SlotLock.Word.self))
    }

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

    @inlinable @inline(__always)
    func findNamed(_ name: String, counting: Bool) -> Unmanaged<RegistrationRecord>? {
        if storage.pointee.namedIndex != nil { return findIndexed(name, counting: counting) }
        // Comparing a few small strings is cheaper than hashing; the entries are walked in place
        // (no copies, so no reference counting). The walk borrows the array read-only, which
        // skips the uniqueness check a mutable borrow makes, and counts through a pointer: the
        // slot is the buffer's only owner and its lock is held, so the write is exclusive.
        return storage.pointee.named.withUnsafeBufferPointer { entries -> Unmanaged<RegistrationRecord>? in
            guard let base = entries.baseAddress else { return nil }
            for index in 0..<entries.count where base[index].record.name == name {
                if counting { UnsafeMutablePointer(mutating: base + index).pointee.resolutions &+= 1 }
                return Unmanaged.passUnretained(base[index].record)
            }
            return nil
        }
    }

    /// ``findNamed(_:counting:)`` through the name index (many names; out of line).
    @usableFromInline
    func findIndexed(_ name: String, counting: Bool) -> Unmanaged<RegistrationRecord>? {
        guard let position = storage.pointee.namedIndex?[name] else { return nil }
        if counting { storage.pointee.named[position].resolutions &+= 1 }
        return Unmanaged.passUnretained(storage.pointee.named[position].record)
    }

    /// The registration for `name`; call with the lock held.
    @inlinable
    package func record(named name: String?) -> RegistrationRecord? {
        lock.assertHeld()
        guard let name else { return storage.pointee.unnamed }
        return findNamed(name, counting: false)?.takeUnretainedValue()
    }

    /// When the registration for `name` was made (its write's sequence number), if there is one;
    /// call with the lock held.
    func sequence(named name: String?) -> Int? {
        lock.assertHeld()
        guard let name else { return storage.pointee.unnamed == nil ? nil : storage.pointee.unnamedSequence }
        if let position = storage.pointee.namedIndex?[name] { return storage.pointee.named[position].sequence }
        return storage.pointee.named.first { $0.record.name == name }?.sequence
    }

    /// How many resolutions `record` (a registration in this slot) served; call with the lock held.
    package func resolutions(of record: RegistrationRecord) -> Int {
        lock.assertHeld()
        if storage.pointee.unnamed === record { return storage.pointee.unnamedResolutions }
        return storage.pointee.named.first { $0.record === record }?.resolutions ?? 0
    }

    /// Replaces the registration for `name` (or removes it, with `nil`), returning the one it
    /// replaced; call with the lock held. A new registration counts its resolutions from zero;
    /// `sequence` is when it was made (listings are in that order).
    package func setRecord(_ record: __owned RegistrationRecord?, named name: String?, sequence: Int = 0)
        -> RegistrationRecord?
    {
        lock.assertHeld()
        guard let name else {
            let old = storage.pointee.unnamed
            storage.pointee.unnamed = record
            storage.pointee.unnamedResolutions = 0
            storage.pointee.unnamedSequence = sequence
            return old
        }
        let existing =
            storage.pointee.namedIndex.map { $0[name] }
            ?? storage.pointee.named.firstIndex(where: { $0.record.name == name })
        if let index = existing {
            let old = storage.pointee.named[index].record
            if let record {
                storage.pointee.named[index] = NamedRegistration(record: record, resolutions: 0, sequence: sequence)
            } else {
                storage.pointee.named.remove(at: index)
                rebuildNamedIndex() // positions after `index` moved (removal is rare)
            }
            return old
        }
        if let record {
            storage.pointee.named.append(NamedRegistration(record: record, resolutions: 0, sequence: sequence))
            if storage.pointee.namedIndex != nil {
                storage.pointee.namedIndex?[name] = storage.pointee.named.count - 1
            } else if storage.pointee.named.count > SlotStorage.indexThreshold {
                rebuildNamedIndex()
            }
        }
        return nil
    }

    /// Builds the name index when there are enough names, drops it otherwise; lock held.
    private func rebuildNamedIndex() {
        guard storage.pointee.named.count > SlotStorage.indexThreshold else {
            storage.pointee.namedIndex = nil
            return
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(storage.pointee.named.count)
        for (position, entry) in storage.pointee.named.enumerated() {
            if let name = entry.record.name { index[name] = position }
        }
        storage.pointee.namedIndex = index
    }

    /// Sets every registration's resolution count back to zero; call with the lock held.
    package func resetResolutionCounts() {
        lock.assertHeld()
        storage.pointee.unnamedResolutions = 0
        for index in storage.pointee.named.indices { storage.pointee.named[index].resolutions = 0 }
    }

    /// Every registration in the slot; call with the lock held.
    package var allRecords: [RegistrationRecord] { allRecordsWithSequence.map(\.record) }

    /// Every registration in the slot with when it was made; call with the lock held.
    var allRecordsWithSequence: [(record: RegistrationRecord, sequence: Int)] {
        lock.assertHeld()
        return (storage.pointee.unnamed.map { [($0, storage.pointee.unnamedSequence)] } ?? [])
            + storage.pointee.named.map { ($0.record, $0.sequence) }
    }

    /// Removes every registration and returns them (to be released outside the lock); call with
    /// the lock held.
    func removeAll() -> [RegistrationRecord] {
        lock.assertHeld()
        let records = allRecords
        storage.pointee.unnamed = nil
        storage.pointee.unnamedResolutions = 0
        storage.pointee.named = []
        storage.pointee.namedIndex = nil
        return records
    }
}
