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
/// In `Sendable` types: `Inject<T>` is `Sendable` when `T` is, so a `Sendable` struct may hold
/// `@Inject var x: T?` for a `Sendable` `T`. The compiler rejects wrapped properties in a checked
/// `Sendable` class (their backing storage is a `var`); such a class can be `@unchecked Sendable`
/// because the backing storage is never reassigned after init and is itself thread-safe, or be
/// an actor or a `@MainActor` class.
@propertyWrapper
public struct Inject<T> {
    @usableFromInline let cell: WriteOnceCell<T>

    /// Injects the registration of `T`, or the one made under `name`.
    public init(_ name: String? = nil) {
        self.cell = WriteOnceCell(name: name)
    }

    /// The resolved dependency, or `nil` while it cannot be resolved.
    @inlinable
    public var wrappedValue: T? {
        if let value = cell.value { return value }
        return resolveFirst()
    }

    @usableFromInline
    func resolveFirst() -> T? {
        let container = Container.shared
        do {
            return cell.publish(try container.resolveCore(T.self, name: cell.name))
        } catch {
            container.report(error)
            return nil
        }
    }
}

extension Inject: @unchecked Sendable where T: Sendable {}
