import Atomics

/// An open-addressing hash table of slots keyed by their ids, readable without locks.
///
/// Each entry is one word: the address of a slot (0 when empty). The key is read from the slot
/// itself (its immutable id), which keeps the table at 8 bytes per entry. A writer (holding
/// the registry's write lock) publishes a fully built slot with a releasing store; readers load
/// entries with acquiring loads, so a reader that sees a slot also sees its header. Entries are
/// never removed (a slot is emptied instead), and a table past three quarters full is replaced by
/// a larger copy while the old one stays alive for readers still probing it; the old tables
/// together are never larger than the current one.
@usableFromInline
final class SlotTable: @unchecked Sendable {
    @usableFromInline let mask: Int
    @usableFromInline let shift: UInt
    @usableFromInline let entries: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
    /// Guarded by the registry's write lock.
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity >= 2 && capacity & (capacity - 1) == 0)
        mask = capacity - 1
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: capacity)
    }

    deinit {
        entries.deinitialize(count: mask + 1)
        entries.deallocate()
    }

    var capacity: Int { mask + 1 }

    /// Whether one more slot keeps the table at most three quarters full (linear probing stays at a
    /// couple of probes per hit there).
    var hasRoomForOneMore: Bool { (count + 1) * 4 <= capacity * 3 }

    @inlinable @inline(__always)
    func startIndex(_ id: UInt) -> Int {
        // Fibonacci hashing spreads pointer-aligned ids over the table.
        Int(truncatingIfNeeded: (id &* fibonacciMultiplier) &>> shift)
    }

    @inlinable @inline(__always)
    func find(_ id: UInt) -> TypeSlot? {
        var index = startIndex(id)
        while true {
            let bits = UnsafeAtomic<UInt>(at: entries + index).load(ordering: .acquiring)
            guard let address = UnsafeMutablePointer<SlotStorage>(bitPattern: bits) else { return nil }
            if TypeSlot(storage: address).id == id { return TypeSlot(storage: address) }
            index = (index + 1) & mask
        }
    }

    /// Inserts a slot whose id is not yet present; the caller holds the write lock and has checked
    /// ``hasRoomForOneMore``.
    func insert(_ slot: TypeSlot) {
        var index = startIndex(slot.id)
        while UnsafeAtomic<UInt>(at: entries + index).load(ordering: .relaxed) != 0 {
            index = (index + 1) & mask
        }
        UnsafeAtomic<UInt>(at: entries + index).store(UInt(bitPattern: slot.storage), ordering: .releasing)
        count += 1
    }

    /// Calls `body` with every slot; the caller holds the write lock.
    func forEach(_ body: (TypeSlot) throws -> Void) rethrows {
        for index in 0...mask {
            let bits = UnsafeAtomic<UInt>(at: entries + index).load(ordering: .relaxed)
            if let address = UnsafeMutablePointer<SlotStorage>(bitPattern: bits) {
                try body(TypeSlot(storage: address))
            }
        }
    }
}
