import Atomics
import Foundation

/// The storage behind one container: a lock-free table of slots, one per registered type.
///
/// Looking a type up takes no lock at all: a read loads the current table and probes it. The
/// resolution then takes the found slot's lock for a few loads (see the Concurrency Model
/// article for the locks a first build or a nested resolution adds). Writes (registration,
/// reset) serialize on `writeLock`.
///
/// Slots live in an arena of chunks owned by the registry and are freed only with it, so readers
/// use them without reference counting and a registration allocates nothing for its slot.
@usableFromInline
final class Registry: @unchecked Sendable {
    @usableFromInline let current: UnsafeAtomic<Unmanaged<SlotTable>>
    /// Held only for table and arena bookkeeping and the slot update (never while a factory
    /// runs), so the slot lock's spin-then-yield suits it: `NSLock` costs dynamic calls on both
    /// sides of every registration.
    private let writeLock = WordLock()
    // The fields below are guarded by `writeLock`, so exclusivity is not checked at run time.
    /// Every table ever published; old ones stay alive for readers that may still probe them.
    @exclusivity(unchecked) private var tables: [SlotTable]
    @exclusivity(unchecked) private var sequence = 0
    /// Slot chunks: each is allocated with its capacity and filled up to `used` (the last one) or
    /// completely (the others).
    @exclusivity(unchecked) private var chunks: [(base: UnsafeMutableRawPointer, capacity: Int)] = []
    /// The last chunk, kept apart so making a slot touches no array (an array access retains and
    /// releases its buffer).
    @exclusivity(unchecked) private var chunkBase: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var chunkCapacity = 0
    @exclusivity(unchecked) private var used = 0

    init() {
        let table = SlotTable(capacity: 16)
        tables = [table]
        current = .create(Unmanaged.passUnretained(table))
    }

    deinit {
        writeLock.deallocate()
        for (index, chunk) in chunks.enumerated() {
            let count = index == chunks.count - 1 ? used : chunk.capacity
            for slot in 0..<count {
                (chunk.base + slot * SlotStorage.stride + SlotStorage.headerSize)
                    .assumingMemoryBound(to: SlotStorage.self).deinitialize(count: 1)
            }
            chunk.base.deallocate()
        }
        _ = current.destroy()
    }

    @inlinable @inline(__always)
    func slot(for id: UInt) -> TypeSlot? {
        current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.find(id) }
    }

    /// A fresh slot for `id` from the arena; the caller holds the write lock.
    private func makeSlot(id: UInt) -> TypeSlot {
        writeLock.assertHeld()
        if chunkBase == nil || used == chunkCapacity {
            // Chunks grow (4, 8, … 256 slots) so a small container wastes little and a large one
            // allocates rarely.
            let capacity = min(256, max(4, chunkCapacity * 2))
            let base = UnsafeMutableRawPointer.allocate(byteCount: capacity * SlotStorage.stride, alignment: 64)
            chunks.append((base, capacity))
            chunkBase = base
            chunkCapacity = capacity
            used = 0
        }
        let storage = SlotStorage.initialize(slot: chunkBase.unsafelyUnwrapped + used * SlotStorage.stride, id: id)
        used += 1
        return TypeSlot(storage: storage)
    }

    /// The number of the latest write (0 before any): a record whose write number is at most
    /// this was registered before now.
    var latestSequence: Int { writeLock.withLock { sequence } }

    /// Runs `body` with the write lock held and the slot for `id`, creating it when missing.
    /// `sequence` numbers the write (unique in this registry; registration order). A new slot
    /// is published after `body` fills it, so readers never see it empty.
    func withSlotForWriting<R>(id: UInt, _ body: (TypeSlot, _ sequence: Int) throws -> R) rethrows -> R {
        writeLock.lock()
        defer { writeLock.unlock() }
        sequence += 1
        // The newest table, unretained: `tables` keeps it (and only this lock's holder replaces it).
        let newest = current.load(ordering: .relaxed)
        if let existing = newest._withUnsafeGuaranteedRef({ $0.find(id) }) { return try body(existing, sequence) }
        let slot = makeSlot(id: id)
        let result = try body(slot, sequence)
        if newest._withUnsafeGuaranteedRef({ $0.hasRoomForOneMore }) {
            newest._withUnsafeGuaranteedRef { $0.insert(slot) }
        } else {
            let larger = SlotTable(capacity: newest._withUnsafeGuaranteedRef { $0.capacity } * 2)
            // swift-format-ignore: ReplaceForEachWithForLoop
            newest._withUnsafeGuaranteedRef { $0.forEach { larger.insert($0) } }
            larger.insert(slot)
            tables.append(larger)
            current.store(Unmanaged.passUnretained(larger), ordering: .releasing)
        }
        return result
    }

    /// Runs `body` over every slot with the write lock held.
    func forEachSlot(_ body: (TypeSlot) throws -> Void) rethrows {
        writeLock.lock()
        defer { writeLock.unlock() }
        try current.load(ordering: .relaxed)._withUnsafeGuaranteedRef { try $0.forEach(body) }
    }

    /// A consistent list of every current registration, in registration order.
    func allRecords() -> [(slot: TypeSlot, record: RegistrationRecord)] {
        var result: [(slot: TypeSlot, record: RegistrationRecord, sequence: Int)] = []
        forEachSlot { slot in
            slot.lock.withLock {
                for (record, sequence) in slot.allRecordsWithSequence { result.append((slot, record, sequence)) }
            }
        }
        return result.sorted { $0.sequence < $1.sequence }.map { ($0.slot, $0.record) }
    }

    /// Every current registration with its context, a key with context registrations giving each
    /// of its entries, in registration order.
    func allEntries() -> [(slot: TypeSlot, record: RegistrationRecord, context: RegistrationContext?)] {
        var result: [(slot: TypeSlot, entry: ContextualRecord.Entry)] = []
        forEachSlot { slot in
            slot.lock.withLock {
                for (record, sequence) in slot.allRecordsWithSequence {
                    for entry in record.contextEntries(sequence: sequence) { result.append((slot, entry)) }
                }
            }
        }
        return result.sorted { $0.entry.sequence < $1.entry.sequence }.map {
            ($0.slot, $0.entry.record, $0.entry.context)
        }
    }
}
