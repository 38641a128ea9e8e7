import Atomics

/// An open-addressing hash table from registry key ids to slots, readable without locks.
///
/// Writers (holding the registry's write lock) fill an entry's slot pointer first and then publish
/// its key with a releasing store; readers load keys with acquiring loads, so a reader that sees a
/// key also sees its slot. Entries are never removed (a slot is emptied instead), and a full table
/// is replaced by a larger copy while the old one stays alive for readers still probing it; the
/// old tables together are never larger than the current one.
@usableFromInline
final class SlotTable: @unchecked Sendable {
    @usableFromInline let mask: Int
    @usableFromInline let shift: UInt
    @usableFromInline let keys: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
    @usableFromInline let slots: UnsafeMutablePointer<Unmanaged<TypeSlot>?>
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0)
        mask = capacity - 1
        shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: capacity)
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        keys.deinitialize(count: mask + 1)
        keys.deallocate()
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    var capacity: Int { mask + 1 }

    func startIndex(_ id: UInt) -> Int {
        // Fibonacci hashing spreads pointer-aligned ids over the table.
        capacity == 1 ? 0 : Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inlinable @inline(__always)
    func find(_ id: UInt) -> Unmanaged<TypeSlot>? {
        var index = mask == 0 ? 0 : Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while true {
            let key = UnsafeAtomic<UInt>(at: keys + index).load(ordering: .acquiring)
            if key == id { return slots[index] }
            if key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Inserts a slot for a key not yet present; the caller holds the write lock and has checked
    /// that the table stays at most half full.
    func insert(_ id: UInt, _ slot: TypeSlot) {
        var index = startIndex(id)
        while UnsafeAtomic<UInt>(at: keys + index).load(ordering: .relaxed) != 0 {
            index = (index + 1) & mask
        }
        slots[index] = Unmanaged.passUnretained(slot)
        UnsafeAtomic<UInt>(at: keys + index).store(id, ordering: .releasing)
        count += 1
    }

    /// Every (id, slot) pair; the caller holds the write lock.
    var entries: [(UInt, TypeSlot)] {
        var result: [(UInt, TypeSlot)] = []
        for index in 0...mask {
            let key = UnsafeAtomic<UInt>(at: keys + index).load(ordering: .relaxed)
            if key != 0, let slot = slots[index] { result.append((key, slot.takeUnretainedValue())) }
        }
        return result
    }
}
