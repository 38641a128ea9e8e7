import Atomics

/// An open-addressing hash table of slots keyed by their ids, readable without locks.
///
/// Each entry is one word: the address of a slot (0 when empty). The key is read from the slot
/// itself (its immutable header), which keeps the table at 8 bytes per entry. A writer (holding
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
    private(set) var count = 0

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
        Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    @inlinable @inline(__always)
    func find(_ id: UInt) -> Unmanaged<TypeSlot>? {
        var index = startIndex(id)
        while true {
            let bits = UnsafeAtomic<UInt>(at: entries + index).load(ordering: .acquiring)
            guard let address = UnsafeRawPointer(bitPattern: bits) else { return nil }
            let slot = Unmanaged<TypeSlot>.fromOpaque(address)
            if slot._withUnsafeGuaranteedRef({ $0.id }) == id { return slot }
            index = (index + 1) & mask
        }
    }

    /// Inserts a slot whose id is not yet present; the caller holds the write lock and has checked
    /// ``hasRoomForOneMore``. The table does not retain the slot (the registry does).
    func insert(_ slot: Unmanaged<TypeSlot>) {
        var index = startIndex(slot._withUnsafeGuaranteedRef { $0.id })
        while UnsafeAtomic<UInt>(at: entries + index).load(ordering: .relaxed) != 0 {
            index = (index + 1) & mask
        }
        UnsafeAtomic<UInt>(at: entries + index).store(UInt(bitPattern: slot.toOpaque()), ordering: .releasing)
        count += 1
    }

    /// Calls `body` with every slot; the caller holds the write lock.
    func forEach(_ body: (Unmanaged<TypeSlot>) throws -> Void) rethrows {
        for index in 0...mask {
            let bits = UnsafeAtomic<UInt>(at: entries + index).load(ordering: .relaxed)
            if let address = UnsafeRawPointer(bitPattern: bits) { try body(Unmanaged.fromOpaque(address)) }
        }
    }
}
