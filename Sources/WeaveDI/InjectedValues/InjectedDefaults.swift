import Atomics

/// Each key's default value for the process's context, computed once and kept.
///
/// A default is computed outside the lock (it may read other keys); a thread that asks for a
/// default another thread is computing waits for it, so each default is computed exactly once. A
/// default that reads its own key while being computed gets a fresh, uncached value instead of
/// deadlocking. Once computed, a default is read without the lock, from an immutable snapshot;
/// snapshots are kept for the life of the cache (one per key, small), so a reader never sees one
/// freed.
@usableFromInline
final class InjectedDefaults: @unchecked Sendable {
    @usableFromInline static let shared = InjectedDefaults(context: InjectionContext.current)

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

    private enum Entry {
        case computing(thread: ObjectIdentifier)
        case ready(AnyObject)
    }

    /// The defaults computed so far; replaced (never changed) when one is added.
    ///
    /// An open-addressing table keyed by the key type's metadata address with multiplicative
    /// hashing: every `@Injected(\.key)` read looks a default up here, and a `Dictionary` would
    /// run SipHash on each read.
    @usableFromInline
    final class Snapshot: @unchecked Sendable {
        @usableFromInline let keys: [UInt]
        /// Unretained: `values` owns the boxes, so a look-up retains nothing.
        @usableFromInline let boxes: [Unmanaged<AnyObject>?]
        @usableFromInline let mask: Int
        @usableFromInline let shift: UInt
        /// The entries, for building the next snapshot.
        let values: [ObjectIdentifier: AnyObject]

        init(_ values: [ObjectIdentifier: AnyObject]) {
            self.values = values
            var capacity = 8
            while capacity < values.count * 2 { capacity *= 2 }
            var keys = [UInt](repeating: 0, count: capacity)
            var boxes = [Unmanaged<AnyObject>?](repeating: nil, count: capacity)
            let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
            for (id, box) in values {
                let key = UInt(bitPattern: id)
                var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
                while keys[index] != 0 { index = (index + 1) & (capacity - 1) }
                keys[index] = key
                boxes[index] = Unmanaged.passUnretained(box)
            }
            self.keys = keys
            self.boxes = boxes
            self.mask = capacity - 1
            self.shift = shift
        }

        @inlinable
        func box(for id: ObjectIdentifier) -> Unmanaged<AnyObject>? {
            let key = UInt(bitPattern: id)
            var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while true {
                let candidate = keys[index]
                if candidate == key { return boxes[index] }
                if candidate == 0 { return nil }
                index = (index + 1) & mask
            }
        }
    }

    @usableFromInline let context: InjectionContext
    private let mutex = ConditionMutex()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Every snapshot published (guarded by `mutex`), which keeps them alive for readers.
    private var snapshots: [Snapshot]
    @usableFromInline let published: UnsafeAtomic<Unmanaged<Snapshot>>

    init(context: InjectionContext) {
        let first = Snapshot([:])
        self.context = context
        self.snapshots = [first]
        self.published = .create(Unmanaged.passUnretained(first))
    }

    deinit { _ = published.destroy() }

    /// The default of `key` for this context.
    @inlinable
    func value<K: InjectedKey>(for key: K.Type) -> K.Value {
        let id = ObjectIdentifier(key)
        // Boxes are stored under their key's identity only, so a box's type is known.
        if let box = published.load(ordering: .acquiring)._withUnsafeGuaranteedRef({ $0.box(for: id) }) {
            // The snapshot keeps the box alive: only the value is retained.
            return unsafeBitCast(box, to: Unmanaged<ValueBox<K.Value>>.self)._withUnsafeGuaranteedRef { $0.value }
        }
        let box = slowBox(id) { ValueBox(InjectedDefaults.compute(key, in: self.context)) }
        return unsafeDowncast(box, to: ValueBox<K.Value>.self).value
    }

    @inlinable
    static func compute<K: InjectedKey>(_ key: K.Type, in context: InjectionContext) -> K.Value {
        switch context {
        case .live: return K.liveValue
        case .test: return K.testValue
        case .preview: return K.previewValue
        }
    }

    /// Computes (once) and publishes the default boxed by `make`, or waits for the thread that is
    /// computing it.
    @usableFromInline
    func slowBox(_ id: ObjectIdentifier, _ make: () -> AnyObject) -> AnyObject {
        let me = ResolutionStack.current.threadID
        mutex.lock()
        while true {
            switch entries[id] {
            case .ready(let box)?:
                mutex.unlock()
                return box
            case .computing(let thread)? where thread == me:
                mutex.unlock()
                return make()
            case .computing?:
                mutex.wait()
            case nil:
                entries[id] = .computing(thread: me)
                mutex.unlock()
                let box = make()
                mutex.withLock {
                    entries[id] = .ready(box)
                    var values = snapshots[snapshots.count - 1].values
                    values[id] = box
                    let next = Snapshot(values)
                    snapshots.append(next)
                    published.store(Unmanaged.passUnretained(next), ordering: .releasing)
                    mutex.broadcast()
                }
                return box
            }
        }
    }
}
