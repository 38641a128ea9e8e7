import Atomics
import Foundation
import WeaveDICore

/// The values ``Injected`` reads by key path: each ``InjectedKey``'s default, or the override
/// the current task set with ``withInjectedValues(_:operation:)``.
///
/// Declare an entry with a computed property over a key:
///
/// ```swift
/// extension InjectedValues {
///     public var apiClient: APIClient {
///         get { self[APIClientKey.self] }
///         set { self[APIClientKey.self] = newValue }
///     }
/// }
/// ```
///
/// A value of this type is a snapshot: setting an entry changes that value only. The values in
/// effect for a task are ``current``.
public struct InjectedValues: Sendable {
    @usableFromInline var overrides: Overrides

    /// No overrides: every entry reads its key's default.
    public init() {
        overrides = Overrides()
    }

    /// The entry for `key`: the override set on this value, or else the key's default for the
    /// process's context (test, preview or live; computed once per key and kept).
    @inlinable
    public subscript<K: InjectedKey>(key: K.Type) -> K.Value {
        get {
            if let values = overrides.values, let box = values[ObjectIdentifier(key)] {
                // Entries are stored under their key's identity only, so the box's type is known.
                return unsafeDowncast(box, to: ValueBox<K.Value>.self).value
            }
            return InjectedDefaults.readPath.defaults._withUnsafeGuaranteedRef { $0.value(for: key) }
        }
        set {
            var values = overrides.values ?? [:]
            overrides.values = nil // keeps `values` uniquely referenced, so the insert does not copy
            values[ObjectIdentifier(key)] = ValueBox(newValue)
            overrides.values = values
        }
    }

    /// The values in effect for the current task: the innermost ``withInjectedValues(_:operation:)``
    /// override of this task (inherited by the tasks it creates), or the defaults.
    @inlinable
    public static var current: InjectedValues {
        // Until the first override, every task sees the defaults: skip the task-local read.
        anyOverrideBound() ? bound : InjectedValues()
    }

    /// Whether any task ever bound an override.
    ///
    /// Declared read-only and kept out of line on purpose: an atomic load inlined into
    /// `@Injected`'s getter counts, for the optimizer, as a possible write to the owner's storage,
    /// which makes it copy (retain and release) the wrapper on every read. A result the optimizer
    /// reuses is harmless: the flag only ever turns on, and an override binds through a call, after
    /// which the flag is read again; another task's override is not this task's to see.
    @_effects(readonly) @inline(never) @usableFromInline
    static func anyOverrideBound() -> Bool { overridesUsed.load(ordering: .relaxed) }

    /// Set, and never cleared, by the first `withInjectedValues`. Never cleared because a task
    /// created inside an override may outlive it and must keep seeing it. (`UnsafeAtomic`, never
    /// destroyed: a `ManagedAtomic` load from inlined client code costs a retain and a release.)
    @inlinable static var overridesUsed: UnsafeAtomic<Bool> { InjectedDefaults.readPath.overridesUsed }

    @TaskLocal @usableFromInline static var bound = InjectedValues()

    /// Called before binding an override, so ``current`` starts reading the task-local.
    static func noteOverride() {
        if !overridesUsed.load(ordering: .relaxed) { overridesUsed.store(true, ordering: .relaxed) }
    }

    /// Overridden entries by key. Values set in an override are shared with the tasks that
    /// inherit it, as a registered instance is: the caller decides they may be shared, which is
    /// why the box is unchecked. `nil` until the first override, so the defaults (what almost
    /// every read sees) cost no dictionary.
    @usableFromInline
    struct Overrides: @unchecked Sendable {
        @usableFromInline var values: [ObjectIdentifier: AnyObject]?
        #if Dependencies
            /// Overrides of bridged keys set on this value and not bound yet, by key: binding
            /// moves them to `DependencyValues` (see `BridgedInjectedOverride`).
            @usableFromInline var bridged: [ObjectIdentifier: any BridgedInjectedOverride]?
        #endif

        @usableFromInline init() {}
    }
}

extension InjectedValues {
    /// Which of an ``InjectedKey``'s values the process uses by default.
    @usableFromInline
    enum Context: Sendable, Hashable {
        /// An app or tool: ``InjectedKey/liveValue``.
        case live
        /// A test process (XCTest or Swift Testing): ``InjectedKey/testValue``.
        case test
        /// An Xcode preview: ``InjectedKey/previewValue``.
        case preview

        /// The context of this process, detected once at first use: the detection registration
        /// contexts use (`RegistrationContext`), so a key's `testValue` and a `.test`
        /// registration apply in the same processes.
        static let current: Context = {
            let signals = ProcessSignals.process
            return signals.isPreview ? .preview : signals.isTest ? .test : .live
        }()

        /// Decides the context from what the process shows (see `ProcessSignals`): an Xcode
        /// preview, else a test run, else live.
        static func detect(
            environment: [String: String],
            processName: String,
            arguments: [String],
            isTypeLoaded: (String) -> Bool
        ) -> Context {
            if ProcessSignals.isPreview(environment: environment) { return .preview }
            let isTest = ProcessSignals.isTestRun(
                environment: environment, processName: processName, arguments: arguments, isTypeLoaded: isTypeLoaded)
            return isTest ? .test : .live
        }
    }
}
