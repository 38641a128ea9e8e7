import Atomics
import WeaveDICore

/// A dependency key with a default (the Factory style of Michael Long's multi-module registration article) and a property wrapper that builds
/// a new instance on every read: one type for both uses.
///
/// **As a key**, declared once as a `static let`:
///
/// ```swift
/// extension Container {
///     public static let accountLoader = Factory<AccountLoading?> { nil }
///     static let session = Factory(scope: .singleton) { try Session(token: Container.token.resolveOrThrow()) }
/// }
///
/// Container.accountLoader.register { AccountLoader() }   // somewhere in the app
/// let loader = Container.accountLoader()                 // AccountLoader
/// ```
///
/// - `callAsFunction()` resolves from `Container.shared`: the factory registered with
///   ``register(scope:in:file:line:factory:)`` if there is one (in the container or a parent),
///   otherwise the default closure, run with the key's `scope` (a `.singleton` default is built
///   once per root container). Each resolution first runs `AutoRegistering` setup if it has not run.
/// - The default may throw (a closure that uses `try` picks the throwing initializer): a default
///   that resolves what it needs with `resolveOrThrow` hands a missing dependency or a cycle on to
///   the key's caller instead of stopping the program inside the default.
/// - ``register(scope:in:file:line:factory:)`` replaces the default for every later resolution
///   in that container, from any thread; ``reset(in:)`` or the container's `reset()` drops it.
/// - Every `Factory { }` expression makes a new key. Declare keys as `static let`: a key made per
///   call or per object would never see registrations made for another one.
/// - `Factory` is `Sendable` whatever `T` is — it holds no `T`, only an immutable definition (an
///   id, a scope and a `@Sendable` closure) — so `static let` keys of non-`Sendable` protocol types
///   compile in Swift 6.
///
/// A key's ``callAsFunction()`` (and ``resolve(in:)``, and an `@Injected(Container.key)` read)
/// **stops the program** when resolution has no value to give — its default threw (a missing
/// dependency, a cycle through the key itself, any other error) or its custom scope instance has
/// ended — with a message naming the key's type, where it is declared and the inner failure
/// (the missing type, the cycle's path). ``resolveOrThrow(in:)`` throws the same failure as a
/// ``DIError`` instead, and never stops the program.
///
/// **As a property wrapper**, `@Factory var processor: TemporaryProcessor` resolves the
/// registration of `TemporaryProcessor` from `Container.shared` on **every** read, so a transient
/// registration gives a new instance each time. The getter is not `mutating`; the wrapper works in
/// structs, classes, `@MainActor` types and `Sendable` structs.
///
/// - A **non-optional** property whose read cannot resolve its type **stops the program** (a
///   documented trap, like ``RequiredInject``) with a message naming the type, the declaring type,
///   the declaration's file and line, look-alike registrations and how to register it.
/// - An **optional** property, `@Factory var processor: (any Processing)?`, resolves the
///   registration of the wrapped type (`any Processing`, under the name if one is given): it reads
///   that registration when there is one and `nil` when there is none. It never stops the program:
///   a cycle or a factory that threw also reads `nil`. Every failure, a miss included, reaches
///   `UnifiedDI.onResolutionError`, as for `Container.resolve`.
@propertyWrapper
public struct Factory<T>: Sendable {
    /// Everything the factory needs, behind one reference so copying a `Factory` (which every
    /// read of an `@Injected` or `@Factory` property does) costs one retain.
    @usableFromInline let definition: FactoryDefinition<T>

    /// Declares a key whose default is `factory`, run with `scope` (a new instance per resolution
    /// unless said otherwise).
    public init(
        scope: Scope = .transient,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping @Sendable () -> T
    ) {
        self.init(keyScope: scope, file: file, line: line, makeDefault: factory)
    }

    /// Declares a key whose default `factory` may throw, run with `scope`.
    ///
    /// What the default throws fails the resolution: ``resolveOrThrow(in:)`` throws it — a
    /// ``DIError`` as it is (such as the `dependencyNotFound` or `circularDependency` of a
    /// `resolveOrThrow` made inside the default), any other error wrapped in
    /// ``DIError/factoryFailed(_:name:underlying:)`` — and ``callAsFunction()`` stops the program
    /// with a message naming the key's type and that failure. A non-throwing closure picks the
    /// other initializer, so `Factory<AccountLoading?> { nil }` means what it always did.
    @_disfavoredOverload
    public init(
        scope: Scope = .transient,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping @Sendable () throws -> T
    ) {
        self.init(keyScope: scope, file: file, line: line, makeDefault: factory)
    }

    private init(keyScope scope: Scope, file: StaticString, line: UInt, makeDefault: @escaping @Sendable () throws -> T)
    {
        // Two odd ids per key (see RegistryKey): one for overrides, one for a scoped default.
        let keyID = (factoryKeyCounter.loadThenWrappingIncrement(ordering: .relaxed) << 2) | 1
        definition = FactoryDefinition(
            keyID: keyID, overrideKey: RegistryKey(rawID: keyID, name: nil), name: nil, scope: scope,
            makeDefault: makeDefault, optional: nil, wrapper: "Factory", owner: "a Factory key", file: file, line: line)
    }

    /// The property-wrapper form: every read resolves the registration of `T` (under `name`, if
    /// given) from `Container.shared` — for an optional `T`, the registration of the type it wraps,
    /// and `nil` without one. The other parameters record where the property is declared, for the
    /// message a missing registration of a non-optional `T` stops with.
    public init(_ name: String? = nil, owner: String = #function, file: StaticString = #fileID, line: UInt = #line) {
        self.init(resolving: name, wrapper: "@Factory", owner: owner, file: file, line: line)
    }

    /// The property-wrapper form, named `wrapper` in trap messages.
    init(resolving name: String?, wrapper: String, owner: String, file: StaticString, line: UInt) {
        let optional = (T.self as? any OptionalValue.Type).map { $0.wrapperForm(as: T.self) }
        let key = optional.map { RegistryKey(anyType: $0.wrapped, name: name) } ?? RegistryKey(T.self, name: name)
        definition = FactoryDefinition(
            keyID: 0, overrideKey: key, name: name, scope: .transient,
            makeDefault: nil, optional: optional, wrapper: wrapper, owner: owner, file: file, line: line)
    }

    /// 0 for the property-wrapper form, which resolves the registration of `T` itself.
    var keyID: UInt { definition.keyID }

    /// A new resolution on every read: `callAsFunction()`.
    @inlinable
    public var wrappedValue: T { callAsFunction() }

    // MARK: Resolving

    /// Resolves from `Container.shared`: the registered factory, or the key's default.
    @inlinable
    public func callAsFunction() -> T {
        resolve(in: Container.shared)
    }

    /// Resolves from `container`: the registered factory, or the key's default. Stops the program
    /// where ``resolveOrThrow(in:)`` would throw (see the type's documentation), except for the
    /// optional property-wrapper form, which returns `nil` instead.
    @inlinable
    public func resolve(in container: Container) -> T {
        do {
            return try resolveCore(in: container)
        } catch {
            return recover(from: container.report(error, thrown: true))
        }
    }

    /// Resolves from `container` (`Container.shared` by default), or throws why it could not, as a
    /// ``DIError``; never stops the program. For a key: what its default threw (a missing
    /// dependency, a cycle, ``DIError/factoryFailed(_:name:underlying:)`` around any other error),
    /// a cycle through a registered factory, an ended scope. For the property-wrapper form: a
    /// missing registration (for an optional `T`, `nil` instead), a cycle, a factory that threw.
    /// Failures also reach `UnifiedDI.onResolutionError`.
    @inlinable
    public func resolveOrThrow(in container: Container = .shared) throws(DIError) -> T {
        do {
            return try resolveCore(in: container)
        } catch {
            throw container.report(error, thrown: true)
        }
    }

    @inlinable
    func resolveCore(in container: Container) throws(DIError) -> T {
        let definition = definition
        guard let makeDefault = definition.makeDefault else {
            if let optional = definition.optional { return try optional.resolve(container, definition.overrideKey) }
            return try container.resolveCore(key: definition.overrideKey, type: T.self)
        }
        // Most keys are never overridden: skip the lookup (and the error it would throw) when
        // no container in the chain ever held a registration under the key.
        try container.ensureAutoRegistered()
        if container.hasSlot(forKeyID: definition.keyID) {
            do {
                return try container.resolveCore(key: definition.overrideKey, type: T.self)
            } catch {
                // Registered factories cannot throw: a miss here is the key's own.
                guard case .dependencyNotFound = error else { throw error }
            }
        }
        return try container.resolveFactoryDefault(
            makeDefault, key: RegistryKey(rawID: definition.keyID | 2, name: nil), scope: definition.scope,
            site: definition.site)
    }

    /// What a failed ``resolve(in:)`` returns: `nil` for the optional property-wrapper form;
    /// otherwise it stops the program (kept out of line so the inlined resolution path stays small).
    @usableFromInline
    func recover(from error: DIError) -> T {
        if let optional = definition.optional { return optional.none() }
        let message =
            definition.makeDefault == nil
            ? InjectionTrap.message(
                wrapper: definition.wrapper, type: T.self, name: definition.name,
                owner: definition.owner, site: definition.site, error: error)
            : InjectionTrap.keyMessage(type: T.self, site: definition.site, error: error)
        fatalError(message, file: definition.file, line: definition.line)
    }

    // MARK: Registering

    /// Replaces the default: later resolutions in `container` (`Container.shared` by default) and
    /// its children run `factory` with `scope`. Registering again replaces the earlier
    /// registration (subject to the container's ``Container/duplicatePolicy``).
    ///
    /// For the property-wrapper form this registers `T` itself — for an optional `T`, the type it
    /// wraps, which is what the property reads: a value `factory` returns is that registration's
    /// instance, and a `nil` it returns reads as `nil` through optional properties and fails other
    /// resolutions of the wrapped type with ``DIError/factoryFailed(_:name:underlying:)``.
    @discardableResult
    public func register(
        scope: Scope = .transient,
        in container: Container = .shared,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () -> T
    ) -> RegistrationHandle {
        let site = RegistrationSite(fileID: file, line: line)
        if let optional = definition.optional {
            return optional.register(container, definition.overrideKey, scope, nil, site, factory)
        }
        return container.store(
            key: definition.overrideKey, scope: scope, dependencies: [], site: site, factory: factory)
    }

    /// Drops what ``register(scope:in:file:line:factory:)`` registered in `container`
    /// (`Container.shared` by default), so the default applies again. For the property-wrapper
    /// form this removes the registration the property reads (`T`'s, or for an optional `T` the
    /// wrapped type's). Returns whether there was a registration.
    @discardableResult
    public func reset(in container: Container = .shared) -> Bool {
        container.remove(key: definition.overrideKey, onlyIf: nil)
    }
}

/// Numbers the keys; each key takes two odd registry ids derived from its number.
let factoryKeyCounter = ManagedAtomic<UInt>(1)

/// What a ``Factory`` is: immutable, shared by every copy of it.
@usableFromInline
final class FactoryDefinition<T>: Sendable {
    /// An odd number for a key (its overrides' registry id; `keyID | 2` is its scoped default's);
    /// 0 for the property-wrapper form, which resolves the registration of `T` itself.
    @usableFromInline let keyID: UInt
    /// Where overrides (or, for the property-wrapper form, the registrations it reads) are stored.
    @usableFromInline let overrideKey: RegistryKey
    @usableFromInline let name: String?
    @usableFromInline let scope: Scope
    @usableFromInline let makeDefault: (@Sendable () throws -> T)?
    /// For the property-wrapper form of an optional `T`: how it reads the wrapped type.
    @usableFromInline let optional: OptionalWrapperForm<T>?
    /// How trap messages name the API: `Factory`, `@Factory` or `@Injected`.
    let wrapper: String
    let owner: String
    let file: StaticString
    let line: UInt

    init(
        keyID: UInt, overrideKey: RegistryKey, name: String?, scope: Scope, makeDefault: (@Sendable () throws -> T)?,
        optional: OptionalWrapperForm<T>?, wrapper: String, owner: String, file: StaticString, line: UInt
    ) {
        self.wrapper = wrapper
        self.keyID = keyID
        self.overrideKey = overrideKey
        self.name = name
        self.scope = scope
        self.makeDefault = makeDefault
        self.optional = optional
        self.owner = owner
        self.file = file
        self.line = line
    }

    /// Where the key or property is declared.
    @usableFromInline var site: RegistrationSite { RegistrationSite(fileID: "\(file)", line: Int(line)) }
}
