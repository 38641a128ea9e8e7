import Atomics
import Foundation

/// The storage behind one container: a lock-free table of slots, one per registered type.
///
/// Reads (every resolution) take no registry-wide lock: they load the current table, probe it,
/// and take only the found slot's lock. Writes (registration, reset) serialize on `writeLock`.
@usableFromInline
final class Registry: @unchecked Sendable {
    @usableFromInline let current: UnsafeAtomic<Unmanaged<SlotTable>>
    private let writeLock = NSLock()
    /// Every table ever published; old ones stay alive for readers that may still probe them.
    private var tables: [SlotTable]
    /// Every slot, kept alive for the registry's lifetime so tables can refer to them unretained.
    private var slots: [TypeSlot] = []
    private var sequence = 0

    init() {
        let table = SlotTable(capacity: 16)
        tables = [table]
        current = .create(Unmanaged.passUnretained(table))
    }

    deinit { _ = current.destroy() }

    @inlinable @inline(__always)
    func slot(for id: UInt) -> TypeSlot? {
        current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.find(id) }?.takeUnretainedValue()
    }

    /// Runs `body` with the write lock held and the slot for `key`, creating it when missing.
    func withSlotForWriting<R>(id: UInt, type: Any.Type, _ body: (TypeSlot, _ sequence: Int) throws -> R) rethrows -> R {
        writeLock.lock()
        defer { writeLock.unlock() }
        sequence += 1
        let table = tables[tables.count - 1]
        if let existing = table.find(id) {
            return try body(existing.takeUnretainedValue(), sequence)
        }
        let slot = TypeSlot(type: type, id: id)
        slots.append(slot)
        var target = table
        if (table.count + 1) * 2 > table.capacity {
            target = SlotTable(capacity: table.capacity * 2)
            for (existingID, existingSlot) in table.entries { target.insert(existingID, existingSlot) }
        }
        target.insert(id, slot)
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
        for slot in slots { try body(slot) }
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
