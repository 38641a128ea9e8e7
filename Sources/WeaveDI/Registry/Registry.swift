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
    private var sequence = 0

    init() {
        let table = SlotTable(capacity: 16)
        tables = [table]
        current = .create(Unmanaged.passUnretained(table))
    }

    deinit {
        // The registry owns one reference to every slot (taken when the slot was created); every
        // slot is in the last table.
        tables[tables.count - 1].forEach { $0.release() }
        _ = current.destroy()
    }

    @inlinable @inline(__always)
    func slot(for id: UInt) -> Unmanaged<TypeSlot>? {
        current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.find(id) }
    }

    /// Runs `body` with the write lock held and the slot for `id`, creating it when missing.
    func withSlotForWriting<R>(id: UInt, _ body: (TypeSlot, _ sequence: Int) throws -> R) rethrows -> R {
        writeLock.lock()
        defer { writeLock.unlock() }
        sequence += 1
        let table = tables[tables.count - 1]
        if let existing = table.find(id) {
            return try existing._withUnsafeGuaranteedRef { try body($0, sequence) }
        }
        let slot = Unmanaged.passRetained(TypeSlot.make(id: id))
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
        return try slot._withUnsafeGuaranteedRef { try body($0, sequence) }
    }

    /// Runs `body` over every slot with the write lock held.
    func forEachSlot(_ body: (TypeSlot) throws -> Void) rethrows {
        writeLock.lock()
        defer { writeLock.unlock() }
        try tables[tables.count - 1].forEach { slot in try slot._withUnsafeGuaranteedRef { try body($0) } }
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
