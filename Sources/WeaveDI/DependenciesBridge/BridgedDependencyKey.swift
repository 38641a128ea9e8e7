#if Dependencies
    import Dependencies
    import Atomics
    import WeaveDICore

    /// A dependency readable both as `@Dependency(\.x)` (swift-dependencies) and as
    /// `@Injected(\.x)` (WeaveDI), whose live value is the container's registration.
    ///
    /// Available with the `Dependencies` package trait. Declare the key once, then one accessor
    /// in each world over the `bridged:` subscripts:
    ///
    /// ```swift
    /// enum APIClientKey: BridgedDependencyKey {
    ///     static let bridge = DependencyBridge<any APIClient>(fallback: { OfflineAPIClient() })
    /// }
    /// extension DependencyValues {
    ///     var apiClient: any APIClient {
    ///         get { self[bridged: APIClientKey.self] }
    ///         set { self[bridged: APIClientKey.self] = newValue }
    ///     }
    /// }
    /// extension InjectedValues {
    ///     var apiClient: any APIClient {
    ///         get { self[bridged: APIClientKey.self] }
    ///         set { self[bridged: APIClientKey.self] = newValue }
    ///     }
    /// }
    /// ```
    ///
    /// Guarantees, for both accessors alike:
    /// - **One override reaches both worlds.** `withDependencies { $0.apiClient = mock }` is read by
    ///   `@Injected(\.apiClient)` and `withInjectedValues { $0.apiClient = mock }` by
    ///   `@Dependency(\.apiClient)`, in the overriding task and the tasks it creates only. When
    ///   both worlds override the key, the override set last (the innermost) wins, in both.
    ///   Either world's override lives in `DependencyValues` (`withInjectedValues` applies it with
    ///   `withDependencies`), so swift-dependencies carries it as one of its own: a `@Dependency`
    ///   created inside keeps it, `withEscapedDependencies` restores it in an escaping closure,
    ///   and `withDependencies(from:)` treats the key as a plain `DependencyKey`.
    /// - **Context.** The value is chosen by swift-dependencies' context
    ///   (`DependencyValues.context`, which it detects for tests and previews): in `.test` the
    ///   bridge's `testValue`, in `.preview` its `previewValue`; without one, or in `.live`, the
    ///   container's registration.
    /// - **The container's registration**, resolved on every read from `Container.shared` (so a
    ///   task bound to a child container with `Container.withShared` reads the child's, then its
    ///   parents'), under the bridge's `name`, with the registration's lifetime: a transient
    ///   registration gives a new instance per read, a singleton the same one.
    /// - **Failure.** When nothing is registered the bridge's `fallback` is returned, if it has
    ///   one. Otherwise, and for any other failure (a cycle, a factory that threw), the read
    ///   **stops the program** with the container's error (type, path, look-alike
    ///   registrations), as a non-optional `@Injected` does; ``resolveLive()`` throws it instead.
    public protocol BridgedDependencyKey {
        /// The dependency's type: the type its registration is made for.
        associatedtype Value: Sendable

        /// How the key reads the container and what it uses in tests and previews.
        static var bridge: DependencyBridge<Value> { get }
    }

    /// What a ``BridgedDependencyKey`` resolves and what it falls back to.
    public struct DependencyBridge<Value: Sendable>: Sendable {
        /// The registration's name; `nil` for the unnamed registration of `Value`.
        public let name: String?
        /// Made when the container has no registration of `Value` (under ``name``); `nil` makes a
        /// missing registration an error.
        public let fallback: (@Sendable () -> Value)?
        /// Made once per test (swift-dependencies' cache) in the `.test` context; `nil` reads the
        /// container there too (what a test registered, for instance with the `.container` trait).
        public let testValue: (@Sendable () -> Value)?
        /// Made once in the `.preview` context; `nil` reads the container there too.
        public let previewValue: (@Sendable () -> Value)?
        /// Whether swift-dependencies' context can pick a value (a test or preview value is given).
        @usableFromInline let hasContextValues: Bool

        /// A bridge to the registration of `Value` under `name`, with the values to use when it is
        /// missing, in tests and in previews (each `nil` unless given).
        public init(
            name: String? = nil,
            fallback: (@Sendable () -> Value)? = nil,
            testValue: (@Sendable () -> Value)? = nil,
            previewValue: (@Sendable () -> Value)? = nil
        ) {
            self.name = name
            self.fallback = fallback
            self.testValue = testValue
            self.previewValue = previewValue
            self.hasContextValues = testValue != nil || previewValue != nil
        }
    }

    extension BridgedDependencyKey {
        /// The live value: the registration of `Value` (under the bridge's name) in
        /// `Container.shared`, or the bridge's fallback when there is none. Throws the container's
        /// ``DIError`` (also reported to `UnifiedDI.onResolutionError`) when there is no
        /// registration and no fallback, or when the registration cannot be built — including a
        /// registration with an async factory (``DIError/asyncResolutionRequired(_:name:)``, even
        /// for a singleton already built): a bridged read is synchronous.
        @inlinable
        public static func resolveLive() throws -> Value {
            let container = Container.shared
            do {
                return try container.resolveCore(Value.self, name: Self.bridge.name)
            } catch {
                return try liveFailure(error, in: container)
            }
        }

        /// The fallback, or the container's error reported and thrown.
        @usableFromInline
        static func liveFailure(_ error: DIError, in container: Container) throws -> Value {
            let bridge = Self.bridge
            // Only this key's own registration may be replaced by the fallback: a missing
            // dependency of its factory is the container's error.
            if let fallback = bridge.fallback, case .dependencyNotFound(let type, let name, _) = error,
                type == Value.self, name == bridge.name
            {
                return fallback()
            }
            throw container.report(error, thrown: true)
        }
    }

    // MARK: Storage

    /// A bridged key's override (or test/preview value) in `DependencyValues`, the one place a
    /// task's overrides of bridged keys live: `withInjectedValues` applies its bridged overrides
    /// there too (through `withDependencies`), so every swift-dependencies mechanism that carries
    /// `DependencyValues` (`@Dependency`'s captured values, `withDependencies(from:)`,
    /// `withEscapedDependencies`, `prepareDependencies`) carries them, and the innermost wins.
    @usableFromInline
    struct BridgedEntry<Value: Sendable>: Sendable {
        @usableFromInline let value: Value
        /// Counts the override as alive while any copy of it exists (`nil` for a test or preview
        /// value).
        let liveness: LiveOverride?
    }

    /// How many overrides of each bridged key exist in the process, per key, in two places:
    /// `DependencyValues` (held by a bound value, a captured copy, a task that inherited one, or
    /// swift-dependencies' cache after `prepareDependencies`) and `InjectedValues` values not
    /// bound yet (a snapshot being built in `withInjectedValues`' update, or kept by the caller).
    ///
    /// While a key's count in a place is 0, no task can see an override of that key there, so a
    /// read skips that lookup: swift-dependencies' costs two locked cache lookups when the key is
    /// absent (~350 ns, 7× a plain `@Injected` read). Counting per key keeps the other keys on
    /// the fast path while one key is overridden (a test's `withDependencies`, a
    /// `prepareDependencies`). Relaxed counts are enough: a task that can see an override got it
    /// (by binding it, or inheriting or capturing it) after the override's increment, and its copy
    /// keeps the count above 0 until the task lets it go.
    ///
    /// The table: a slot per key ever overridden, claimed by the key's identity with a
    /// compare-and-swap at its first override and kept (linear probing from a hash of the
    /// identity), so a read finds its key's slot, or an empty slot that ends the search, without
    /// a lock. Each slot is three words: the identity, then the two counts. If all
    /// ``slotCount`` slots are claimed, further keys share one overflow slot (correct, only
    /// slower while one of them is overridden). Never freed: it lives as long as the process.
    @usableFromInline
    enum BridgeOverrides {
        @usableFromInline static let slotBits = 9
        @usableFromInline static let slotCount = 1 << slotBits
        /// Offsets of the counts in a slot.
        @usableFromInline static let inDependencies = 1
        @usableFromInline static let inInjected = 2

        /// `(slotCount + 1) * 3` words: the slots, then the overflow slot (identity unused).
        @usableFromInline nonisolated(unsafe) static let table: UnsafeMutablePointer<UnsafeAtomic<Int>.Storage> = {
            let words = (slotCount + 1) * 3
            let table = UnsafeMutablePointer<UnsafeAtomic<Int>.Storage>.allocate(capacity: words)
            for word in 0..<words { (table + word).initialize(to: UnsafeAtomic<Int>.Storage(0)) }
            return table
        }()

        /// Where `identity`'s search starts (Fibonacci hashing: metadata addresses are aligned,
        /// their low bits alone would crowd a few slots).
        @inlinable
        static func home(_ identity: Int) -> Int {
            Int(truncatingIfNeeded: (UInt(bitPattern: identity) &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - slotBits))
        }

        /// The slot of `key`, `slotCount` for the overflow slot, or `nil` when `key` was never
        /// overridden (its counts are 0).
        @inlinable
        static func slot(of key: ObjectIdentifier) -> Int? {
            let identity = Int(bitPattern: key)
            var slot = home(identity)
            for _ in 0..<slotCount {
                // Acquiring: pairs with the claim, so the slot's counts are the key's.
                let held = UnsafeAtomic<Int>(at: table + slot * 3).load(ordering: .acquiring)
                if held == identity { return slot }
                if held == 0 { return nil }
                slot = (slot + 1) & (slotCount - 1)
            }
            return slotCount
        }

        /// Whether an override of `key` may exist in the place at `offset` (``inDependencies`` or
        /// ``inInjected``).
        @inlinable
        static func mayExist(_ key: ObjectIdentifier, at offset: Int) -> Bool {
            isCounted(slot(of: key), at: offset)
        }

        /// Whether the count at `offset` of `slot` (from ``slot(of:)``) is above 0.
        @inlinable
        static func isCounted(_ slot: Int?, at offset: Int) -> Bool {
            guard let slot else { return false }
            return UnsafeAtomic<Int>(at: table + slot * 3 + offset).load(ordering: .relaxed) != 0
        }

        /// The count of `key` at `offset`, claiming a slot for `key` if it has none.
        static func counter(for key: ObjectIdentifier, at offset: Int) -> UnsafeAtomic<Int> {
            let identity = Int(bitPattern: key)
            var slot = home(identity)
            for _ in 0..<slotCount {
                let (claimed, held) = UnsafeAtomic<Int>(at: table + slot * 3).compareExchange(
                    expected: 0, desired: identity, ordering: .acquiringAndReleasing)
                if claimed || held == identity { return UnsafeAtomic(at: table + slot * 3 + offset) }
                slot = (slot + 1) & (slotCount - 1)
            }
            return UnsafeAtomic(at: table + slotCount * 3 + offset)
        }

        /// The count of `key` at `offset` (0 when it has no slot); for tests.
        static func count(of key: ObjectIdentifier, at offset: Int) -> Int {
            guard let slot = slot(of: key) else { return 0 }
            return UnsafeAtomic<Int>(at: table + slot * 3 + offset).load(ordering: .relaxed)
        }
    }

    /// Counts one override in `counter` from its creation to the end of its last copy.
    final class LiveOverride: Sendable {
        private let counter: UnsafeAtomic<Int>

        init(_ counter: UnsafeAtomic<Int>) {
            self.counter = counter
            counter.wrappingIncrement(ordering: .relaxed)
        }

        deinit { counter.wrappingDecrement(ordering: .relaxed) }
    }

    /// Where a bridged key lives in `DependencyValues`: its override, or the test/preview value
    /// swift-dependencies chose (and cached) for the context.
    @usableFromInline
    enum DependencySlot<Key: BridgedDependencyKey>: DependencyKey {
        @usableFromInline static var liveValue: BridgedEntry<Key.Value>? { nil }
        @usableFromInline static var testValue: BridgedEntry<Key.Value>? {
            Key.bridge.testValue.map { BridgedEntry(value: $0(), liveness: nil) }
        }
        @usableFromInline static var previewValue: BridgedEntry<Key.Value>? {
            Key.bridge.previewValue.map { BridgedEntry(value: $0(), liveness: nil) }
        }
    }

    /// A bridged key's override set on an `InjectedValues` value, until `withInjectedValues`
    /// applies it to `DependencyValues` (see ``BridgedEntry``). Counted in ``BridgeOverrides``
    /// while it exists.
    @usableFromInline
    protocol BridgedInjectedOverride: AnyObject, Sendable {
        /// Sets the override in `values` (as `values[bridged: Key.self] = value` does).
        func apply(to values: inout DependencyValues)
    }

    @usableFromInline
    final class BridgedInjectedEntry<Key: BridgedDependencyKey>: BridgedInjectedOverride {
        @usableFromInline let value: Key.Value
        private let liveness: LiveOverride

        init(_ value: Key.Value) {
            self.value = value
            liveness = LiveOverride(
                BridgeOverrides.counter(for: ObjectIdentifier(Key.self), at: BridgeOverrides.inInjected))
        }

        @usableFromInline
        func apply(to values: inout DependencyValues) { values[bridged: Key.self] = value }
    }

    extension InjectedValues {
        /// Removes the bridged overrides set on this value, for `withInjectedValues` to apply them
        /// to `DependencyValues` (where the bound values' reads find them); `nil` if none was set.
        mutating func takeBridgedOverrides() -> [any BridgedInjectedOverride]? {
            guard let bridged = overrides.bridged else { return nil }
            overrides.bridged = nil
            return Array(bridged.values)
        }
    }

    @usableFromInline
    enum BridgedRead {
        /// The value of `Key` in `dependencies`: its override or test/preview value, else the
        /// container's. `overridden`: whether an override of `Key` may exist in `DependencyValues`
        /// (see `BridgeOverrides`). Inlinable, so that a read is specialized for the key where it
        /// is written.
        @inlinable
        static func value<Key: BridgedDependencyKey>(
            _: Key.Type, overridden: Bool, dependencies: @autoclosure () -> DependencyValues
        ) -> Key.Value {
            // swift-dependencies' world holds the key's test or preview value (by context), or an
            // override; without either, it holds nothing for this key and is not looked up.
            if overridden || Key.bridge.hasContextValues, let entry = dependencies()[DependencySlot<Key>.self] {
                return entry.value
            }
            return live(Key.self)
        }

        /// The container's value of `Key`, or the fallback; stops the program if neither.
        @inlinable
        static func live<Key: BridgedDependencyKey>(_: Key.Type) -> Key.Value {
            do {
                return try Key.resolveLive()
            } catch {
                trap(Key.self, error)
            }
        }

        /// Stops the program: a read with nothing to give (see ``BridgedDependencyKey``).
        @usableFromInline
        static func trap<Key: BridgedDependencyKey>(_: Key.Type, _ error: any Error) -> Never {
            // A read cannot await: "resolve it with resolveAsync" does not help the wrapper's user.
            let advice: String
            if case DIError.asyncResolutionRequired = error {
                advice =
                    " A bridged read is synchronous, so it cannot run an async factory: build the value"
                    + " in `WeaveDI.Container.bootstrap` and register it with `register(_:instance:)`"
                    + " (or a synchronous factory), or override it with `withDependencies` /"
                    + " `withInjectedValues`."
            } else {
                advice =
                    " Register it (in `WeaveDI.Container.bootstrap`, or the `.container { ... }` test"
                    + " trait), override it with `withDependencies` / `withInjectedValues`, or give its"
                    + " `DependencyBridge` a `fallback`."
            }
            let error = (error as? DIError).map(\.description) ?? "\(error)"
            fatalError(
                "The bridged dependency \(TypeNames.qualified(Key.self)) could not provide"
                    + " \(TypeNames.qualified(Key.Value.self)): \(error)" + advice)
        }
    }

    extension DependencyValues {
        /// A ``BridgedDependencyKey``'s value (read by `@Dependency`), or sets its override, seen by
        /// `@Injected` too (see ``BridgedDependencyKey``).
        public subscript<Key: BridgedDependencyKey>(bridged key: Key.Type) -> Key.Value {
            @inlinable get {
                let overridden = BridgeOverrides.mayExist(ObjectIdentifier(key), at: BridgeOverrides.inDependencies)
                return BridgedRead.value(key, overridden: overridden, dependencies: self)
            }
            set {
                self[DependencySlot<Key>.self] = BridgedEntry(
                    value: newValue,
                    liveness: LiveOverride(
                        BridgeOverrides.counter(for: ObjectIdentifier(Key.self), at: BridgeOverrides.inDependencies)))
            }
        }
    }

    extension InjectedValues {
        /// A ``BridgedDependencyKey``'s value (read by `@Injected`), or sets its override, seen by
        /// `@Dependency` too (see ``BridgedDependencyKey``).
        ///
        /// An override set on a value is read from that value; once ``withInjectedValues(_:operation:)``
        /// binds the value, the override lives in `DependencyValues` (applied with
        /// `withDependencies`), where reads in both worlds find it.
        public subscript<Key: BridgedDependencyKey>(bridged key: Key.Type) -> Key.Value {
            @inlinable get {
                let identity = ObjectIdentifier(key)
                // One search of the table for both counts.
                let slot = BridgeOverrides.slot(of: identity)
                if BridgeOverrides.isCounted(slot, at: BridgeOverrides.inInjected),
                    let entry = overrides.bridged?[identity]
                {
                    // Stored under its key's identity only, so the entry's type is known.
                    return unsafeDowncast(entry, to: BridgedInjectedEntry<Key>.self).value
                }
                return BridgedRead.value(
                    key, overridden: BridgeOverrides.isCounted(slot, at: BridgeOverrides.inDependencies),
                    dependencies: DependencyValues._current)
            }
            set {
                var bridged = overrides.bridged ?? [:]
                overrides.bridged = nil // keeps `bridged` uniquely referenced, so the insert does not copy
                bridged[ObjectIdentifier(key)] = BridgedInjectedEntry<Key>(newValue)
                overrides.bridged = bridged
            }
        }
    }
#endif
