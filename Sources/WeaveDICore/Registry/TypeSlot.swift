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
    /// Named registrations with their resolution counts, in the order they were first made; a
    /// type rarely has more than a few.
    @usableFromInline var named: [NamedRegistration]
    /// Positions in `named` by name, kept once a type has more than `indexThreshold` names, so
    /// thousands of names on one type stay constant to register and to look up (see ``NameIndex``).
    @usableFromInline var namedIndex: NameIndex?
    /// Whether a context registration (``ContextualRecord``) was ever stored here (cleared by
    /// `removeAll`): until then a registration or removal takes the plain path, with no look-up
    /// more than before contexts existed.
    var hasContexts: Bool

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
            MemoryLayout<WordLock.Word>.size <= 8 && headerSize + MemoryLayout<SlotStorage>.size <= stride,
            "a slot must fit its cache line")
        let storage = (slot + headerSize).bindMemory(to: SlotStorage.self, capacity: 1)
        WordLock.prepare((slot + headerSize + lockOffset).bindMemory(to: WordLock.Word.self, capacity: 1))
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
        hasContexts = false
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
struct TypeSlot {
    @usableFromInline let storage: UnsafeMutablePointer<SlotStorage>

    @inlinable @inline(__always)
    init(storage: UnsafeMutablePointer<SlotStorage>) { self.storage = storage }

    /// The registry key id the slot serves (immutable, so read without the lock).
    @inlinable
    var id: UInt { UnsafeRawPointer(storage).load(fromByteOffset: SlotStorage.idOffset, as: UInt.self) }

    /// The slot's lock; its word starts the slot's cache line.
    @inlinable
    var lock: WordLock {
        WordLock(
            word: (UnsafeMutableRawPointer(storage) + SlotStorage.lockOffset).assumingMemoryBound(
                to: WordLock.Word.self))
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
        guard let position = indexedPosition(of: name, tag: NameIndex.tag(name)) else { return nil }
        if counting { storage.pointee.named[position].resolutions &+= 1 }
        return Unmanaged.passUnretained(storage.pointee.named[position].record)
    }

    /// Where `name` (whose ``NameIndex/tag(_:)`` is `tag`) sits in `named`, through the index;
    /// lock held, index present. The index and the entries are read in place through the slot's
    /// pointer: no copy, so no reference counting and no allocation on the look-up.
    func indexedPosition(of name: String, tag: UInt32) -> Int? {
        storage.pointee.namedIndex.unsafelyUnwrapped.find(tag: tag) { position in
            storage.pointee.named.withUnsafeBufferPointer { $0[position].record.name == name }
        }
    }

    /// Where `name` sits in `named` (through the index when there is one); lock held. `tag` is
    /// computed only when the index is used, and handed back for an insertion that follows.
    private func position(of name: String, tag: inout UInt32?) -> Int? {
        if storage.pointee.namedIndex != nil {
            let computed = NameIndex.tag(name)
            tag = computed
            return indexedPosition(of: name, tag: computed)
        }
        return storage.pointee.named.firstIndex { $0.record.name == name }
    }

    /// The registration for `name`; call with the lock held.
    @inlinable
    func record(named name: String?) -> RegistrationRecord? {
        lock.assertHeld()
        guard let name else { return storage.pointee.unnamed }
        return findNamed(name, counting: false)?.takeUnretainedValue()
    }

    /// When the registration for `name` was made (its write's sequence number), if there is one;
    /// call with the lock held.
    func sequence(named name: String?) -> Int? {
        lock.assertHeld()
        guard let name else { return storage.pointee.unnamed == nil ? nil : storage.pointee.unnamedSequence }
        var tag: UInt32?
        return position(of: name, tag: &tag).map { storage.pointee.named[$0].sequence }
    }

    /// How many resolutions `record` (a registration in this slot) served; call with the lock held.
    func resolutions(of record: RegistrationRecord) -> Int {
        lock.assertHeld()
        if storage.pointee.unnamed === record { return storage.pointee.unnamedResolutions }
        // Found by its name (through the index when there is one), then checked to be this very
        // registration: a record that was replaced has served nothing here any more.
        var tag: UInt32?
        guard let name = record.name, let position = position(of: name, tag: &tag),
            storage.pointee.named[position].record === record
        else { return 0 }
        return storage.pointee.named[position].resolutions
    }

    /// Replaces the registration for `name` (or removes it, with `nil`), returning the one it
    /// replaced; call with the lock held. A new registration counts its resolutions from zero;
    /// `sequence` is when it was made (listings are in that order).
    func setRecord(_ record: __owned RegistrationRecord?, named name: String?, sequence: Int = 0)
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
        // The name is hashed at most once: the tag the look-up computed is the one an insertion
        // files (and no name is hashed at all below the index threshold).
        var tag: UInt32?
        if let index = position(of: name, tag: &tag) {
            let old = storage.pointee.named[index].record
            if let record {
                storage.pointee.named[index] = NamedRegistration(record: record, resolutions: 0, sequence: sequence)
            } else {
                storage.pointee.named.remove(at: index)
                // Positions after `index` moved (removal is rare): the index is rebuilt from its
                // own tags, without hashing a name again.
                if storage.pointee.named.count <= SlotStorage.indexThreshold {
                    storage.pointee.namedIndex = nil
                } else if let previous = storage.pointee.namedIndex {
                    storage.pointee.namedIndex = previous.removing(position: index)
                }
            }
            return old
        }
        guard record != nil else { return nil }
        let position = storage.pointee.named.count
        // `consume`: the record moves into the list (bound with `if let`, it was retained twice
        // and released twice around the append).
        storage.pointee.named.append(
            NamedRegistration(record: (consume record).unsafelyUnwrapped, resolutions: 0, sequence: sequence))
        if let tag {
            if storage.pointee.namedIndex.unsafelyUnwrapped.hasRoomForOneMore {
                storage.pointee.namedIndex.unsafelyUnwrapped.insert(tag: tag, position: position)
            } else {
                let larger = storage.pointee.namedIndex.unsafelyUnwrapped.grown()
                larger.insert(tag: tag, position: position)
                storage.pointee.namedIndex = larger
            }
        } else if storage.pointee.named.count > SlotStorage.indexThreshold {
            buildNamedIndex()
        }
        return nil
    }

    /// Builds the name index, once the slot has more than ``SlotStorage/indexThreshold`` names;
    /// lock held.
    private func buildNamedIndex() {
        let count = storage.pointee.named.count
        let index = NameIndex(capacity: NameIndex.capacity(for: count * 2))
        for position in 0..<count {
            if let name = storage.pointee.named[position].record.name {
                index.insert(tag: NameIndex.tag(name), position: position)
            }
        }
        storage.pointee.namedIndex = index
    }

    /// Whether a context registration was ever stored in the slot (since it was last emptied);
    /// call with the lock held.
    var hasContexts: Bool {
        get { storage.pointee.hasContexts }
        nonmutating set { storage.pointee.hasContexts = newValue }
    }

    /// Sets every registration's resolution count back to zero; call with the lock held.
    func resetResolutionCounts() {
        lock.assertHeld()
        storage.pointee.unnamedResolutions = 0
        for index in storage.pointee.named.indices { storage.pointee.named[index].resolutions = 0 }
    }

    /// Every registration in the slot; call with the lock held.
    var allRecords: [RegistrationRecord] { allRecordsWithSequence.map(\.record) }

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
        storage.pointee.hasContexts = false
        return records
    }
}

/// Where each name of a slot with many names sits in its ``SlotStorage/named`` list: an
/// open-addressing table (linear probing, at most three quarters full) of one word per bucket,
/// the name's 32-bit hash tag in the high half and its position plus one in the low half (0:
/// empty).
///
/// Guarded by the slot lock, like the rest of the slot. A registration hashes its name once
/// (``tag(_:)``), probes, and stores one word; growing or rebuilding after a removal moves the
/// stored tags and hashes no name again, so registering the thousandth name costs what the first
/// one past the threshold does. A look-up compares tags first and a name only on a tag match.
@usableFromInline
final class NameIndex {
    @usableFromInline let buckets: UnsafeMutablePointer<UInt64>
    @usableFromInline let mask: Int
    private(set) var count = 0

    /// `capacity` is a power of two.
    init(capacity: Int) {
        assert(capacity >= 2 && capacity & (capacity - 1) == 0, "a power of two")
        mask = capacity - 1
        buckets = .allocate(capacity: capacity)
        buckets.initialize(repeating: 0, count: capacity)
    }

    deinit { buckets.deallocate() }

    /// The smallest power of two holding `buckets`.
    static func capacity(for buckets: Int) -> Int {
        var capacity = 32
        while capacity < buckets { capacity *= 2 }
        return capacity
    }

    /// The hash tag of `name`: equal for any two names that compare equal (`==`, which is
    /// canonical equivalence), as their keys were in a `[String: Int]`.
    ///
    /// A name whose canonical (NFC) form is ASCII, which is nearly every name, is hashed over
    /// that form eight bytes at a time (``TagHasher``): a few nanoseconds, where the string's own
    /// seeded SipHash (`hashValue`) cost more than the rest of a registration's look-up. Any other
    /// name takes `hashValue`, which hashes the NFC form too; no name can be equal to a name of
    /// the other kind, as equal names have the same NFC form. (Names come from the app's code, so
    /// an unseeded hash that an attacker could flood does no harm here.)
    @inlinable
    static func tag(_ name: String) -> UInt32 {
        // The common case: contiguous UTF-8 (every native string, small or not) that is all
        // ASCII, which is its own NFC form. Read in place: nothing is copied or allocated.
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var hasher = TagHasher()
            var offset = 0
            var high: UInt64 = 0
            if let base = bytes.baseAddress {
                while offset + 8 <= bytes.count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
                    high |= word
                    hasher.mix(word)
                    offset += 8
                }
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(bytes[offset]) &<< shift
                shift += 8
                offset += 1
            }
            if (high | tail) & 0x8080_8080_8080_8080 != 0 { return nil }
            return hasher.finish(tail: tail, count: bytes.count)
        }
        if let tag = ascii ?? nil { return tag }
        return scalarTag(name)
    }

    /// ``tag(_:)`` scalar by scalar, for names that are not contiguous ASCII UTF-8: the same
    /// hash of the same bytes when the NFC form is ASCII.
    ///
    /// A string's NFC form is ASCII exactly when each of its scalars decomposes canonically into
    /// ASCII: ASCII itself, and three singletons (GREEK QUESTION MARK is ";", GREEK VARIA is "`",
    /// KELVIN SIGN is "K"; `NamedRegistrationTests` checks every scalar for others). Such a name
    /// is hashed as its ASCII form; any other scalar means the NFC form is not ASCII.
    @usableFromInline
    static func scalarTag(_ name: String) -> UInt32 {
        var hasher = TagHasher()
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        var count = 0
        for scalar in name.unicodeScalars {
            let ascii: UInt32
            switch scalar.value {
            case 0..<0x80: ascii = scalar.value
            case 0x037E: ascii = 0x3B
            case 0x1FEF: ascii = 0x60
            case 0x212A: ascii = 0x4B
            default: return UInt32(truncatingIfNeeded: name.hashValue)
            }
            tail |= UInt64(ascii) &<< shift
            shift += 8
            count += 1
            if shift == 64 {
                hasher.mix(tail)
                tail = 0
                shift = 0
            }
        }
        return hasher.finish(tail: tail, count: count)
    }

    /// Whether one more name keeps the table at most three quarters full (linear probing stays at
    /// a couple of probes per look-up there).
    var hasRoomForOneMore: Bool { (count + 1) * 4 <= (mask + 1) * 3 }

    /// The position of the entry with `tag` for which `matches(position)` holds. `matches` is
    /// not escaping and is inlined: nothing is allocated.
    @inlinable
    func find(tag: UInt32, _ matches: (Int) -> Bool) -> Int? {
        var bucket = Int(truncatingIfNeeded: tag) & mask
        while true {
            let word = buckets[bucket]
            if word == 0 { return nil }
            if UInt32(truncatingIfNeeded: word &>> 32) == tag {
                let position = Int(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1
                if matches(position) { return position }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Files `position` under `tag`; the caller checked ``hasRoomForOneMore``. (Inlined into the
    /// registration path: a probe and a store.)
    @inline(__always)
    func insert(tag: UInt32, position: Int) {
        // 32 bits of position: a type would need 4 294 967 294 names (hundreds of gigabytes of
        // registrations) to overflow them.
        assert(position < Int(UInt32.max), "a type has at most 4 294 967 294 names")
        var bucket = Int(truncatingIfNeeded: tag) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = UInt64(tag) &<< 32 | UInt64(position + 1)
        count += 1
    }

    /// A copy with twice the buckets.
    func grown() -> NameIndex {
        let larger = NameIndex(capacity: (mask + 1) * 2)
        for bucket in 0...mask where buckets[bucket] != 0 { larger.reinsert(buckets[bucket]) }
        return larger
    }

    /// A copy without the entry at `removed`, in which the positions after it are one less (the
    /// list shifted them down).
    func removing(position removed: Int) -> NameIndex {
        let rebuilt = NameIndex(capacity: mask + 1)
        for bucket in 0...mask where buckets[bucket] != 0 {
            let word = buckets[bucket]
            let position = Int(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1
            if position == removed { continue }
            rebuilt.reinsert(position > removed ? word - 1 : word)
        }
        return rebuilt
    }

    /// Files an encoded bucket word (tag and position) as it is.
    private func reinsert(_ word: UInt64) {
        var bucket = Int(truncatingIfNeeded: word &>> 32) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = word
        count += 1
    }
}

/// The hash behind ``NameIndex/tag(_:)`` for ASCII names: each full eight bytes (read little
/// endian) are mixed in with a multiply, the rest and the length at the end, then the bits are
/// avalanched so that names differing in one character land in unrelated buckets.
@usableFromInline
struct TagHasher {
    @usableFromInline var state: UInt64 = 0x243F_6A88_85A3_08D3

    @inlinable
    init() {}

    @inlinable
    mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state &>> 32
    }

    /// The tag, after the last (partial, possibly empty) word `tail` of a name of `count` bytes.
    @inlinable
    func finish(tail: UInt64, count: Int) -> UInt32 {
        var hash = (state ^ tail ^ (UInt64(truncatingIfNeeded: count) &<< 56)) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= hash &>> 29
        hash = hash &* 0x9E37_79B9_7F4A_7C15
        return UInt32(truncatingIfNeeded: hash &>> 32)
    }
}
