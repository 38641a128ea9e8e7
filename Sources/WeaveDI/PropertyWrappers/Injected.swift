import WeaveDICore

/// Reads a dependency on every access, from ``InjectedValues`` or from a ``Factory`` key.
///
/// ```swift
/// public final class UserService {
///     @Injected(\.apiClient) var apiClient              // InjectedValues
/// }
///
/// class ViewModel: ObservableObject {
///     @Injected(Container.accountLoader) var loader      // Factory key: AccountLoading?
///     func load() {
///         guard let loader else { return }
///         accounts = loader.load()
///     }
/// }
/// ```
///
/// Guarantees:
/// - With a key path, every read returns `InjectedValues.current[keyPath:]`: the override set by
///   the innermost enclosing ``withInjectedValues(_:operation:)`` of the reading task (or by the
///   `.injectedValues` test trait), otherwise the key's default for the process (test, preview or
///   live value).
/// - With a `Factory` key, every read calls the key, so a registration made after the owner was
///   created is seen (the "who's on first" problem of multi-module apps). A read stops the program
///   only where the key's `callAsFunction()` does: when the key has no value to give.
/// - With no argument (or a name), every read resolves `Value`'s registration from
///   `Container.shared` — for an optional `Value`, the wrapped type's registration, `nil` without
///   one — and, for a non-optional `Value`, **stops the program** when it cannot (a documented
///   trap; see ``init(_:owner:file:line:)``).
/// - Nothing is cached in the wrapper: the getter is not `mutating`, and it works in structs,
///   classes and `@MainActor` types.
///
/// In `Sendable` types: `Injected<Value>` is `Sendable` when `Value` is (see ``Inject`` for classes):
/// it only reads shared, immutable state.
@propertyWrapper
public struct Injected<Value> {
    @usableFromInline
    enum Source {
        case values(@Sendable (InjectedValues) -> Value)
        case factory(Factory<Value>)
        /// A `ParameterFactory` key called with the parameter fixed at declaration.
        case call(@Sendable () -> Value)
    }

    @usableFromInline let source: Source

    /// Reads `read(InjectedValues.current)` on every access.
    ///
    /// A key path literal, as in `@Injected(\.apiClient)`, lands here: Swift turns it into a
    /// direct call of the entry's getter, which is several times cheaper than applying a key path
    /// at run time.
    public init(_ read: @escaping @Sendable (InjectedValues) -> Value) {
        source = .values(read)
    }

    /// Reads `InjectedValues.current[keyPath: keyPath]` on every access (for a key path held in a
    /// variable; a literal uses the faster closure form).
    @_disfavoredOverload
    public init(_ keyPath: KeyPath<InjectedValues, Value>) {
        // Key paths are immutable once formed, so sharing one between threads is safe.
        let keyPath = UncheckedBox(keyPath)
        source = .values { $0[keyPath: keyPath.value] }
    }

    /// Calls `factory` on every access.
    public init(_ factory: Factory<Value>) {
        source = .factory(factory)
    }

    /// Calls `key` with `parameter` on every access: `@Injected(Container.userVM, "42")`.
    ///
    /// The parameter is fixed when the property is declared or initialized — in a view model or
    /// view built for one value, `_model = Injected(Container.userVM, id)` in its initializer.
    /// Each read resolves as `key(parameter)` does (a registration made after the owner was
    /// created is seen; a shared lifetime gives the instance of that parameter value), and stops
    /// the program only where the key's ``ParameterFactory/callAsFunction(_:)`` does.
    public init<P: Sendable>(_ key: ParameterFactory<P, Value>, _ parameter: P) {
        source = .call { key(parameter) }
    }

    /// Resolves `Value`'s registration (under `name`, if given) from `Container.shared` on every
    /// access — the Resolver-style `@Injected var loader: AccountLoading` of the multi-module registration article.
    ///
    /// A documented trap: like a non-optional ``Factory`` property, a read that cannot resolve a
    /// non-optional `Value` (nothing registered, a cycle, a factory that threw) **stops the
    /// program** with a message naming the type, the declaring type, the declaration's file and
    /// line, look-alike registrations and how to register it. When the dependency may be missing,
    /// declare the property optional — `@Injected var loader: AccountLoading?` reads the
    /// registration of `AccountLoading`, or `nil` (never a trap) — or use ``Inject``, or a
    /// `Factory` key with an optional value.
    public init(_ name: String? = nil, owner: String = #function, file: StaticString = #fileID, line: UInt = #line) {
        source = .factory(Factory(resolving: name, wrapper: "@Injected", owner: owner, file: file, line: line))
    }

    /// The current value (see the type's guarantees).
    @inlinable
    public var wrappedValue: Value {
        switch source {
        case .values(let read): return read(InjectedValues.current)
        case .factory(let factory): return factory()
        case .call(let read): return read()
        }
    }
}

extension Injected: @unchecked Sendable where Value: Sendable {}
