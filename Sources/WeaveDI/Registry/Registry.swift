import Atomics
import Foundation

/// The storage behind one container: a lock-free table of slots, one per registered type.
///
/// Reads (every resolution) take no registry-wide lock: they load the current table, probe it,
/// and take only the found slot's lock. Writes (registration, reset) serialize on `writeLock`.
///
/// Slots live in an arena of chunks owned by the registry and are freed only with it, so readers
/// use them without reference counting and a registration allocates nothing for its slot.
@usableFromInline
final class Registry: @unchecked Sendable {
    @usableFromInline let current: UnsafeAtomic<Unmanaged<SlotTable>>
    private let writeLock = NSLock()
    // The fields below are guarded by `writeLock`, so exclusivity is not checked at run time.
    /// Every table ever published; old ones stay alive for readers that may still probe them.
    @exclusivity(unchecked) private var tables: [SlotTable]
    @exclusivity(unchecked) private var sequence = 0
    /// Slot chunks: each is allocated with its capacity and filled up to `used` (the last one) or
    /// completely (the others).
    @exclusivity(unchecked) private var chunks: [(base: UnsafeMutableRawPointer, capacity: Int)] = []
    @exclusivity(unchecked) private var used = 0

    init() {
        let table = SlotTable(capacity: 16)
        tables = [table]
        current = .create(Unmanaged.passUnretained(table))
    }

    deinit {
        for (index, chunk) in chunks.enumerated() {
            let count = index == chunks.count - 1 ? used : chunk.capacity
            for slot in 0..<count {
                (chunk.base + slot * SlotStorage.stride).assumingMemoryBound(to: SlotStorage.self).deinitialize(count: 1)
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
        if chunks.isEmpty || used == chunks[chunks.count - 1].capacity {
            // Chunks grow (4, 8, … 256 slots) so a small container wastes little and a large one
            // allocates rarely.
            let capacity = min(256, max(4, (chunks.last?.capacity ?? 2) * 2))
            let base = UnsafeMutableRawPointer.allocate(byteCount: capacity * SlotStorage.stride, alignment: 64)
            chunks.append((base, capacity))
            used = 0
        }
        let storage = (chunks[chunks.count - 1].base + used * SlotStorage.stride)
            .bindMemory(to: SlotStorage.self, capacity: 1)
        SlotStorage.initialize(storage, id: id)
        used += 1
        return TypeSlot(storage: storage)
    }

    /// Runs `body` with the write lock held and the slot for `id`, creating it when missing.
    func withSlotForWriting<R>(id: UInt, _ body: (TypeSlot, _ sequence: Int) throws -> R) rethrows -> R {
        writeLock.lock()
        defer { writeLock.unlock() }
        sequence += 1
        let table = tables[tables.count - 1]
        if let existing = table.find(id) { return try body(existing, sequence) }
        let slot = makeSlot(id: id)
        var target = table
        if !table.hasRoomForOneMore {
            target = SlotTable(capacity: table.capacity * 2)
            table.forEach { target.insert($0) }
        }
        target.insert(slot)
        if target !== table {
            tables.append(target)
            current.store(Unmanaged.passUnretained(target), ordering: .releasing)
        }
        return try body(slot, sequence)
    }

    /// Runs `body` over every slot with the write lock held.
    func forEachSlot(_ body: (TypeSlot) throws -> Void) rethrows {
        writeLock.lock()
        defer { writeLock.unlock() }
        try tables[tables.count - 1].forEach(body)
    }

    /// A consistent list of every current registration, in registration order.
    func allRecords() -> [(slot: TypeSlot, record: RegistrationRecord)] {
        var result: [(TypeSlot, RegistrationRecord)] = []
        forEachSlot { slot in
            slot.lock.withLock {
                for record in slot.allRecords { result.append((slot, record)) }
            }
        }
        return result.sorted { $0.1.sequence < $1.1.sequence }
    }
}
