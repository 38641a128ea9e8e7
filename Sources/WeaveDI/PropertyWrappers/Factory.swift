import Atomics

/// A dependency key with a default (seed 002's Factory style) and a property wrapper that builds
/// a new instance on every read: one type for both uses.
///
/// **As a key**, declared once as a `static let`:
///
/// ```swift
/// extension Container {
///     public static let accountLoader = Factory<AccountLoading?> { nil }
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
/// - ``register(scope:in:file:line:factory:)`` replaces the default for every later resolution
///   in that container, from any thread; ``reset(in:)`` or the container's `reset()` drops it.
/// - Every `Factory { }` expression makes a new key. Declare keys as `static let`: a key made per
///   call or per object would never see registrations made for another one.
/// - `Factory` is `Sendable` whatever `T` is — it holds no `T`, only an immutable definition (an
///   id, a scope and a `@Sendable` closure) — so `static let` keys of non-`Sendable` protocol types
///   compile in Swift 6.
///
/// **As a property wrapper**, `@Factory var processor: TemporaryProcessor` resolves the
/// registration of `TemporaryProcessor` from `Container.shared` on **every** read, so a transient
/// registration gives a new instance each time. A read that cannot resolve it **stops the
/// program** (a documented trap, like ``RequiredInject``) with a message naming the type, the
/// declaring type, the declaration's file and line, look-alike registrations and how to register
/// it. The getter is not `mutating`; the wrapper works in structs, classes, `@MainActor` types and
/// `Sendable` structs.
///
/// A key's `callAsFunction()` traps only when resolution has no value to give: when its factory
/// (directly or not) calls the key again, or its custom scope instance has ended. Use
/// ``resolveOrThrow(in:)`` to get those as errors instead.
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
        // Two odd ids per key (see RegistryKey): one for overrides, one for a scoped default.
        let keyID = (factoryKeyCounter.loadThenWrappingIncrement(ordering: .relaxed) << 2) | 1
        definition = FactoryDefinition(
            keyID: keyID, overrideKey: RegistryKey(rawID: keyID, name: nil), name: nil, scope: scope,
            makeDefault: factory, wrapper: "Factory", owner: "a Factory key", file: file, line: line)
    }

    /// The property-wrapper form: every read resolves the registration of `T` (under `name`, if
    /// given) from `Container.shared`. The other parameters record where the property is
    /// declared, for the message a missing registration stops with.
    public init(_ name: String? = nil, owner: String = #function, file: StaticString = #fileID, line: UInt = #line) {
        self.init(resolving: name, wrapper: "@Factory", owner: owner, file: file, line: line)
    }

    /// The property-wrapper form, named `wrapper` in trap messages.
    init(resolving name: String?, wrapper: String, owner: String, file: StaticString, line: UInt) {
        definition = FactoryDefinition(
            keyID: 0, overrideKey: RegistryKey(T.self, name: name), name: name, scope: .transient,
            makeDefault: nil, wrapper: wrapper, owner: owner, file: file, line: line)
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

    /// Resolves from `container`: the registered factory, or the key's default. Traps where
    /// ``resolveOrThrow(in:)`` would throw (see the type's documentation).
    @inlinable
    public func resolve(in container: Container) -> T {
        do {
            return try resolveCore(in: container)
        } catch {
            trap(container.report(error))
        }
    }

    /// Resolves from `container` (`Container.shared` by default), or throws why it could not: a
    /// cycle, an ended scope, or — for the property-wrapper form — a missing registration or a
    /// factory that threw. Failures also reach `UnifiedDI.onResolutionError`.
    @inlinable
    public func resolveOrThrow(in container: Container = .shared) throws(DIError) -> T {
        do {
            return try resolveCore(in: container)
        } catch {
            throw container.report(error)
        }
    }

    @inlinable
    func resolveCore(in container: Container) throws(DIError) -> T {
        let definition = definition
        guard let makeDefault = definition.makeDefault else {
            return try container.resolveCore(key: definition.overrideKey, type: T.self)
        }
        // Most keys are never overridden: skip the lookup (and the error it would throw) when
        // no container in the chain ever held a registration under the key.
        try container.ensureAutoRegistered()
        if container.hasSlot(forKeyID: definition.keyID) {
            do {
                return try container.resolveCore(key: definition.overrideKey, type: T.self)
            } catch {
                guard case .dependencyNotFound = error else { throw error }
            }
        }
        return try container.resolveFactoryDefault(
            makeDefault, key: RegistryKey(rawID: definition.keyID | 2, name: nil), scope: definition.scope,
            site: definition.site)
    }

    /// Stops the program for a resolution that has no value to return (kept out of line so the
    /// inlined resolution path stays small).
    @usableFromInline
    func trap(_ error: DIError) -> Never {
        fatalError(InjectionTrap.message(
            wrapper: definition.wrapper, type: T.self, name: definition.name,
            owner: definition.owner, site: definition.site, error: error),
            file: definition.file, line: definition.line)
    }

    // MARK: Registering

    /// Replaces the default: later resolutions in `container` (`Container.shared` by default) and
    /// its children run `factory` with `scope`. Registering again replaces the earlier
    /// registration (subject to the container's ``Container/duplicatePolicy``). For the
    /// property-wrapper form this registers `T` itself.
    @discardableResult
    public func register(
        scope: Scope = .transient,
        in container: Container = .shared,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () -> T
    ) -> RegistrationHandle {
        container.store(key: definition.overrideKey, scope: scope, dependencies: [],
                        site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Drops what ``register(scope:in:file:line:factory:)`` registered in `container`
    /// (`Container.shared` by default), so the default applies again. For the property-wrapper
    /// form this removes `T`'s registration. Returns whether there was a registration.
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
    /// Where overrides (or, for the property-wrapper form, `T`'s registrations) are stored.
    @usableFromInline let overrideKey: RegistryKey
    @usableFromInline let name: String?
    @usableFromInline let scope: Scope
    @usableFromInline let makeDefault: (@Sendable () -> T)?
    /// How trap messages name the API: `Factory`, `@Factory` or `@Injected`.
    let wrapper: String
    let owner: String
    let file: StaticString
    let line: UInt

    init(keyID: UInt, overrideKey: RegistryKey, name: String?, scope: Scope, makeDefault: (@Sendable () -> T)?,
         wrapper: String, owner: String, file: StaticString, line: UInt) {
        self.wrapper = wrapper
        self.keyID = keyID
        self.overrideKey = overrideKey
        self.name = name
        self.scope = scope
        self.makeDefault = makeDefault
        self.owner = owner
        self.file = file
        self.line = line
    }

    /// Where the key or property is declared.
    @usableFromInline var site: RegistrationSite { RegistrationSite(fileID: "\(file)", line: Int(line)) }
}
