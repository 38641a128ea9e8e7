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

    /// A bridged key's override (or test/preview value), stamped with when it was set so that the
    /// two worlds agree on which of their overrides is the innermost.
    @usableFromInline
    struct BridgedEntry<Value: Sendable>: Sendable {
        @usableFromInline let value: Value
        /// 0 for a test or preview value; otherwise from ``BridgeGeneration``, larger when set later.
        @usableFromInline let generation: UInt64
        /// Counts the override as alive in its world while any copy of it exists (`nil` for a test
        /// or preview value).
        let liveness: LiveOverride?
    }

    /// Stamps overrides. A task's inner override is set after its outer one, so it gets the larger
    /// stamp; overrides of other tasks are not visible to it, whatever their stamps.
    @usableFromInline
    enum BridgeGeneration {
        static let counter = ManagedAtomic<UInt64>(0)
        static func next() -> UInt64 { counter.loadThenWrappingIncrement(ordering: .relaxed) + 1 }
    }

    /// How many overrides of bridged keys set through `DependencyValues` / `InjectedValues` exist
    /// in the process (held by a bound value, a captured copy, a task that inherited one, or
    /// swift-dependencies' cache after `prepareDependencies`).
    ///
    /// While a world's count is 0, no task can see an override in that world, so a read skips
    /// its lookup: swift-dependencies' costs two locked cache lookups when the key is absent
    /// (~350 ns, 7× a plain `@Injected` read), `InjectedValues`' a task-local read and a hash
    /// lookup. Relaxed is enough: a task that can see an override got it (by binding it, or
    /// inheriting or capturing it) after the override's increment, and its copy keeps the count
    /// above 0 until the task lets it go. (A flag set at the first override, which this replaces,
    /// kept every later read of the process on the slow path.) Never destroyed: they live as
    /// long as the process, and an `UnsafeAtomic` load from inlined code costs no retain.
    @usableFromInline
    enum BridgeOverrides {
        @usableFromInline static let inDependencies = UnsafeAtomic<Int>.create(0)
        @usableFromInline static let inInjected = UnsafeAtomic<Int>.create(0)
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
            Key.bridge.testValue.map { BridgedEntry(value: $0(), generation: 0, liveness: nil) }
        }
        @usableFromInline static var previewValue: BridgedEntry<Key.Value>? {
            Key.bridge.previewValue.map { BridgedEntry(value: $0(), generation: 0, liveness: nil) }
        }
    }

    /// Where a bridged key's override lives in `InjectedValues` (no default of its own: the
    /// context is swift-dependencies').
    @usableFromInline
    enum InjectedSlot<Key: BridgedDependencyKey>: InjectedKey {
        @usableFromInline static var liveValue: BridgedEntry<Key.Value>? { nil }
    }

    @usableFromInline
    enum BridgedRead {
        /// The value of `Key` given both worlds' current values (see ``BridgedDependencyKey``).
        /// Inlinable, so that a read is specialized for the key where it is written.
        @inlinable
        static func value<Key: BridgedDependencyKey>(
            _: Key.Type, dependencies: @autoclosure () -> DependencyValues,
            injected: @autoclosure () -> InjectedValues
        ) -> Key.Value {
            // swift-dependencies' world holds the key's test or preview value (by context), or an
            // override; without either, it holds nothing for this key.
            // Each world is looked up only when it can hold something (see `BridgeOverrides`).
            let fromDependencies =
                Key.bridge.hasContextValues
                    || BridgeOverrides.inDependencies.load(ordering: .relaxed) != 0
                ? dependencies()[DependencySlot<Key>.self] : nil
            let fromInjected =
                BridgeOverrides.inInjected.load(ordering: .relaxed) != 0
                ? injected()[InjectedSlot<Key>.self] : nil
            switch (fromDependencies, fromInjected) {
            case (let d?, let i?): return d.generation >= i.generation ? d.value : i.value
            case (let d?, nil): return d.value
            case (nil, let i?): return i.value
            case (nil, nil): break
            }
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
            @inlinable get { BridgedRead.value(key, dependencies: self, injected: .current) }
            set {
                self[DependencySlot<Key>.self] = BridgedEntry(
                    value: newValue, generation: BridgeGeneration.next(),
                    liveness: LiveOverride(BridgeOverrides.inDependencies))
            }
        }
    }

    extension InjectedValues {
        /// A ``BridgedDependencyKey``'s value (read by `@Injected`), or sets its override, seen by
        /// `@Dependency` too (see ``BridgedDependencyKey``).
        public subscript<Key: BridgedDependencyKey>(bridged key: Key.Type) -> Key.Value {
            @inlinable get { BridgedRead.value(key, dependencies: DependencyValues._current, injected: self) }
            set {
                self[InjectedSlot<Key>.self] = BridgedEntry(
                    value: newValue, generation: BridgeGeneration.next(),
                    liveness: LiveOverride(BridgeOverrides.inInjected))
            }
        }
    }
#endif
