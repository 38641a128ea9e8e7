import WeaveDICore

/// Injects an optional dependency from `Container.shared`, resolved on first read and then kept.
///
/// ```swift
/// final class UserRepositoryImpl: UserRepository {
///     @Inject var apiService: APIService?
///     @Inject("primary") var cache: CacheService?
/// }
/// ```
///
/// Guarantees:
/// - The first read resolves `T` (under `name`, if given) from `Container.shared` — the task's own
///   container inside `Container.withShared` and WeaveDI's test traits — and keeps the result, so
///   every later read returns that same instance, even for a transient registration. The property
///   behaves like a stored dependency that is filled in lazily.
/// - While the result is `nil` (nothing registered yet, a cycle, a factory that threw), every read
///   tries again, so a registration made after the owner was created is found. Each failed try is
///   reported to `UnifiedDI.onResolutionError` like any `resolve`.
/// - Reading is thread-safe. Threads racing on the first read may each run a transient factory,
///   but exactly one result is kept and all of them return it. After that a read is one atomic
///   load and a nil check: no lock.
/// - The getter is not `mutating`: the wrapper keeps its state in a reference, so it works in
///   structs, in classes and in `@MainActor` types. Copies of a struct share the resolved value.
///
/// The property must be optional: `@Inject var repository: any UserRepository` does not compile,
/// with a message saying so. For a dependency that must be there, use ``RequiredInject`` (stops
/// with a message naming the type when it is missing) or ``Injected`` (a key with a default).
///
/// In `Sendable` types: `Inject<Value>` is `Sendable` when `Value` is, so a `Sendable` struct may
/// hold `@Inject var x: T?` for a `Sendable` `T`. The compiler rejects wrapped properties in a
/// checked `Sendable` class (their backing storage is a `var`); such a class can be
/// `@unchecked Sendable` because the backing storage is never reassigned after init and is itself
/// thread-safe, or be an actor or a `@MainActor` class.
@propertyWrapper
public struct Inject<Value> {
    /// The resolved dependency (an optional that is not `nil`), published once.
    @usableFromInline let cell: WriteOnceCell<Value>
    /// `Value`, which the only available initializer knows is an optional: how to resolve the
    /// type it wraps.
    let optional: any InjectableOptional.Type

    /// Injects the registration of `Wrapped`, or the one made under `name`, into a property of
    /// type `Wrapped?`.
    public init<Wrapped>(_ name: String? = nil) where Value == Wrapped? {
        self.cell = WriteOnceCell(name: name)
        self.optional = Value.self
    }

    /// Not available: an `@Inject` property is optional, because it reads `nil` until its
    /// dependency can be resolved.
    @available(
        *, unavailable,
        message:
            "an @Inject property must be optional (it reads nil until the dependency is registered): write `@Inject var name: Type?`, or use @RequiredInject for a dependency that must be there (it stops with a message naming the type when it is missing) or @Injected for an InjectedValues or Factory key"
    )
    public init(_ name: String? = nil) {
        // Never runs (the initializer cannot be called); it only has to initialize the wrapper.
        self.cell = WriteOnceCell(name: name)
        self.optional = Never?.self
    }

    /// The resolved dependency, or `nil` while it cannot be resolved.
    @inlinable
    public var wrappedValue: Value {
        if let value = cell.value { return value }
        return resolveFirst()
    }

    @usableFromInline
    func resolveFirst() -> Value {
        let container = Container.shared
        do {
            return cell.publish(try optional.resolveWrapped(as: Value.self, in: container, name: cell.name))
        } catch {
            container.report(error)
            return optional.none(as: Value.self)
        }
    }
}

extension Inject: @unchecked Sendable where Value: Sendable {}

/// `Optional`, as ``Inject`` sees the type of its property (the only type it accepts).
protocol InjectableOptional {
    /// The registration of the wrapped type under `name`, as a `V`, which must be `Self`.
    static func resolveWrapped<V>(as _: V.Type, in container: Container, name: String?) throws(DIError) -> V
    /// `nil`, as a `V`, which must be `Self`.
    static func none<V>(as _: V.Type) -> V
}

extension Optional: InjectableOptional {
    static func resolveWrapped<V>(as _: V.Type, in container: Container, name: String?) throws(DIError) -> V {
        // `V` is `Self` (``Inject`` passes its `Value`), so the cast reinterprets a value as its own type.
        assert(V.self == Self.self, "InjectableOptional needs the optional type itself")
        let value: Self = .some(try container.resolveCore(Wrapped.self, name: name))
        return unsafeBitCast(value, to: V.self)
    }

    static func none<V>(as _: V.Type) -> V {
        assert(V.self == Self.self, "InjectableOptional needs the optional type itself")
        return unsafeBitCast(Self.none, to: V.self)
    }
}
