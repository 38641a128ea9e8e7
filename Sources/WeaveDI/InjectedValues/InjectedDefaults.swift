import Atomics
import WeaveDICore

// Concurrency model (Reliability/ConcurrencyModel article): each default is computed once. The
// thread that computes it owns a `BuildTicket`; a thread that needs the same default meanwhile
// waits for that ticket through `BuildCoordinator`, so the wait is an edge of the one wait-for
// graph (two threads computing defaults that read each other get a reported cycle, not a hang).
// Readers never lock: they probe an append-only table (see `Table`).

/// Each key's default value for the process's context, computed once and kept — except a default
/// whose computation resolved a registration of a custom scope (a request's unit of work): that
/// one depends on the scope instance of whoever reads it, so it is computed on every read.
///
/// A default is computed outside any lock (it may read other keys or resolve); a thread that asks
/// for a default another thread is computing waits for it. A default that reads its own key while
/// it is being computed — on its own thread, or through another thread waiting for this one —
/// gets a fresh, uncached value instead of a deadlock; the cross-thread case is also reported as a
/// ``DIError/circularDependency(path:)`` to `UnifiedDI.onResolutionError` and the log.
@usableFromInline
final class InjectedDefaults: @unchecked Sendable {
    @usableFromInline static let shared = InjectedDefaults(context: InjectedValues.Context.current)

    /// What every `InjectedValues` read touches, in one global: one lazy-initialization check,
    /// and trivial values only, so a read retains nothing but the value it returns.
    @usableFromInline
    struct ReadPath: @unchecked Sendable {
        /// See ``InjectedValues/overridesUsed``.
        @usableFromInline let overridesUsed: UnsafeAtomic<Bool>
        /// ``shared``, which lives as long as the process.
        @usableFromInline let defaults: Unmanaged<InjectedDefaults>
    }

    @usableFromInline static let readPath = ReadPath(
        overridesUsed: .create(false), defaults: .passUnretained(shared))

    /// The computed defaults, by key type: an open-addressing table (keyed by the key type's
    /// metadata address, Fibonacci hashing; a `Dictionary` would run SipHash on every read) that
    /// readers probe without a lock.
    ///
    /// Append-only: an entry is written once, its box before its key (a releasing store), so a
    /// reader that sees the key (an acquiring load) sees the box. When the table is half full the
    /// writer publishes a table twice as large; replaced tables are kept (readers may still probe
    /// them), and since each is half the size of the next they add up to less than the newest:
    /// memory stays linear in the number of keys.
    @usableFromInline
    final class Table: @unchecked Sendable {
        @usableFromInline let keys: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
        /// `Unmanaged` box pointers; the defaults object owns the boxes.
        @usableFromInline let boxes: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
        @usableFromInline let mask: Int
        @usableFromInline let shift: UInt
        /// Entries written (guarded by the defaults' lock).
        var count = 0

        init(capacity: Int) {
            keys = .allocate(capacity: capacity)
            keys.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: capacity)
            boxes = .allocate(capacity: capacity)
            boxes.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: capacity)
            mask = capacity - 1
            shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        }

        deinit {
            keys.deallocate()
            boxes.deallocate()
        }

        var capacity: Int { mask + 1 }

        /// The box stored for `key`, if any.
        @inlinable
        func box(for key: UInt) -> UnsafeRawPointer? {
            var index = Int(truncatingIfNeeded: (key &* fibonacciMultiplier) >> shift)
            while true {
                let candidate = UnsafeAtomic<UInt>(at: keys + index).load(ordering: .acquiring)
                if candidate == key {
                    return UnsafeRawPointer(bitPattern: UnsafeAtomic<UInt>(at: boxes + index).load(ordering: .relaxed))
                }
                if candidate == 0 { return nil }
                index = (index + 1) & mask
            }
        }

        /// Adds `key`; the caller holds the defaults' lock and made sure there is room.
        func insert(_ key: UInt, box: AnyObject) {
            var index = Int(truncatingIfNeeded: (key &* fibonacciMultiplier) >> shift)
            while UnsafeAtomic<UInt>(at: keys + index).load(ordering: .relaxed) != 0 { index = (index + 1) & mask }
            UnsafeAtomic<UInt>(at: boxes + index).store(
                UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque()), ordering: .relaxed)
            UnsafeAtomic<UInt>(at: keys + index).store(key, ordering: .releasing)
            count += 1
        }
    }

    @usableFromInline let context: InjectedValues.Context
    private let state = Locked(State())
    @usableFromInline let published: UnsafeAtomic<Unmanaged<Table>>

    private enum Entry {
        case computing(BuildTicket)
        case ready(AnyObject)
    }

    /// Guarded by `state`'s lock.
    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Every box computed, which keeps them alive for readers.
        var boxes: [(key: UInt, box: AnyObject)] = []
        /// Every table published, newest last (readers may still probe an old one).
        var tables: [Table] = []
    }

    init(context: InjectedValues.Context) {
        let first = Table(capacity: 8)
        self.context = context
        self.published = .create(Unmanaged.passUnretained(first))
        state.withLock { $0.tables = [first] }
    }

    deinit { _ = published.destroy() }

    /// The default of `key` for this context.
    @inlinable
    func value<K: InjectedKey>(for key: K.Type) -> K.Value {
        let id = UInt(bitPattern: ObjectIdentifier(key))
        // Boxes are stored under their key's identity only, so a box's type is known.
        if let raw = published.load(ordering: .acquiring)._withUnsafeGuaranteedRef({ $0.box(for: id) }) {
            // The defaults object keeps the box alive: only the value is retained.
            return Unmanaged<ValueBox<K.Value>>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.value }
        }
        let box = slowBox(ObjectIdentifier(key), key: key) { ValueBox(InjectedDefaults.compute(key, in: self.context)) }
        return unsafeDowncast(box, to: ValueBox<K.Value>.self).value
    }

    @inlinable
    static func compute<K: InjectedKey>(_ key: K.Type, in context: InjectedValues.Context) -> K.Value {
        switch context {
        case .live: return K.liveValue
        case .test: return K.testValue
        case .preview: return K.previewValue
        }
    }

    /// Computes (once) and publishes the default boxed by `make`, or waits for the thread that is
    /// computing it.
    @usableFromInline
    func slowBox(_ id: ObjectIdentifier, key: Any.Type, _ make: () -> AnyObject) -> AnyObject {
        let stack = ResolutionStack.current
        let me = stack.threadID
        enum Step {
            case ready(AnyObject)
            case compute(BuildTicket)
            case reenter
            case wait(BuildTicket)
        }
        while true {
            let step: Step = state.withLock { state in
                switch state.entries[id] {
                case .ready(let box)?:
                    return .ready(box)
                case .computing(let ticket)?:
                    return ticket.owner == me ? .reenter : .wait(ticket)
                case nil:
                    let ticket = BuildTicket(job: .injectedDefault(key), owner: me)
                    state.entries[id] = .computing(ticket)
                    return .compute(ticket)
                }
            }
            switch step {
            case .ready(let box):
                return box
            case .reenter:
                return make()
            case .wait(let ticket):
                do {
                    try BuildCoordinator.shared.wait(for: ticket, waiter: me, waiterPath: stack.path)
                } catch {
                    // The thread computing it waits, through others, for this one.
                    ObservationCenter.shared.reportFailure(error)
                    return make()
                }
            case .compute(let ticket):
                let scopedBefore = stack.scopedResolutions
                let box = make()
                // A default that resolved a scoped registration (a request's unit of work) is
                // the reader's scope instance's: computed again by the next reader, never kept.
                let keep = stack.scopedResolutions == scopedBefore
                BuildCoordinator.shared.finish(ticket) {
                    state.withLock { state in
                        if keep { publish(box, for: id, in: &state) } else { state.entries[id] = nil }
                    }
                }
                return box
            }
        }
    }

    /// Stores `box` as the default for `id` and makes it visible to readers; lock held.
    private func publish(_ box: AnyObject, for id: ObjectIdentifier, in state: inout State) {
        let key = UInt(bitPattern: id)
        state.entries[id] = .ready(box)
        state.boxes.append((key, box))
        let table = state.tables[state.tables.count - 1]
        if (table.count + 1) * 2 <= table.capacity {
            table.insert(key, box: box)
            return
        }
        let larger = Table(capacity: table.capacity * 2)
        for entry in state.boxes { larger.insert(entry.key, box: entry.box) }
        state.tables.append(larger)
        published.store(Unmanaged.passUnretained(larger), ordering: .releasing)
    }

    /// Bytes the tables take (for the memory test).
    var tableBytes: Int {
        state.withLock { $0.tables.reduce(0) { $0 + $1.capacity * 2 * MemoryLayout<UInt>.stride } }
    }
}
