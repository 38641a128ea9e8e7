import WeaveDICore

/// Injects a dependency that must exist, resolved on first read and then kept.
///
/// ```swift
/// final class UserViewModel {
///     @RequiredInject var logger: LoggerProtocol
/// }
/// ```
///
/// Guarantees:
/// - The first read resolves `T` (under `name`, if given) from `Container.shared` and keeps it;
///   every later read returns the same instance with one atomic load and a nil check, no lock.
/// - First reads are thread-safe: racing threads may each run a transient factory, but exactly
///   one result is kept and all of them return it.
/// - When `T` cannot be resolved, the read **stops the program** (a documented trap, like
///   `requireResolve`) with a message naming `T`, the type that declares the property, the file
///   and line of the declaration, registered types with similar names, and how to register it.
///   The failure reaches `UnifiedDI.onResolutionError` first. Use ``Inject`` for a dependency
///   that may be missing.
/// - The getter is not `mutating`, so it works in structs, classes and `@MainActor` types.
///
/// In `Sendable` types: `RequiredInject<T>` is `Sendable` when `T` is (see ``Inject`` for classes).
@propertyWrapper
public struct RequiredInject<T> {
    @usableFromInline let cell: WriteOnceCell<T>

    /// Injects the registration of `T`, or the one made under `name`. The other parameters record
    /// where the property is declared, for the message a missing dependency stops with.
    public init(_ name: String? = nil, owner: String = #function, file: StaticString = #fileID, line: UInt = #line) {
        self.cell = WriteOnceCell(name: name, owner: owner, file: file, line: line)
    }

    /// The resolved dependency; reading it traps when it cannot be resolved.
    @inlinable
    public var wrappedValue: T {
        if let value = cell.value { return value }
        return resolveFirst()
    }

    @usableFromInline
    func resolveFirst() -> T {
        let container = Container.shared
        do {
            return cell.publish(try container.resolveCore(T.self, name: cell.name))
        } catch {
            let error = container.report(error, thrown: true)
            fatalError(
                InjectionTrap.message(
                    wrapper: "@RequiredInject", type: T.self, name: cell.name, owner: cell.owner, site: cell.site,
                    error: error),
                file: cell.file, line: cell.line)
        }
    }
}

extension RequiredInject: @unchecked Sendable where T: Sendable {}
