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
/// - `Factory` is `Sendable` whatever `T` is — it holds only an id and a `@Sendable` closure — so
///   `static let` keys of non-`Sendable` protocol types compile in Swift 6.
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
    /// 0 for the property-wrapper form, which resolves the registration of `T` itself.
    @usableFromInline let keyID: UInt
    @usableFromInline let name: String?
    @usableFromInline let scope: Scope
    @usableFromInline let makeDefault: (@Sendable () -> T)?
    let owner: String
    let file: StaticString
    let line: UInt

    /// Declares a key whose default is `factory`, run with `scope` (a new instance per resolution
    /// unless said otherwise).
    public init(
        scope: Scope = .transient,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping @Sendable () -> T
    ) {
        // Two odd ids per key (see RegistryKey): one for overrides, one for a scoped default.
        self.keyID = (factoryKeyCounter.loadThenWrappingIncrement(ordering: .relaxed) << 2) | 1
        self.name = nil
        self.scope = scope
        self.makeDefault = factory
        self.owner = "a Factory key"
        self.file = file
        self.line = line
    }

    /// The property-wrapper form: every read resolves the registration of `T` (under `name`, if
    /// given) from `Container.shared`. The other parameters record where the property is
    /// declared, for the message a missing registration stops with.
    public init(_ name: String? = nil, owner: String = #function, file: StaticString = #fileID, line: UInt = #line) {
        self.keyID = 0
        self.name = name
        self.scope = .transient
        self.makeDefault = nil
        self.owner = owner
        self.file = file
        self.line = line
    }

    /// Where the key or property is declared.
    var site: SourceLocation { SourceLocation(fileID: "\(file)", line: Int(line)) }

    /// A new resolution on every read: `callAsFunction()`.
    public var wrappedValue: T { callAsFunction() }

    @usableFromInline var overrideKey: RegistryKey {
        keyID == 0 ? RegistryKey(T.self, name: name) : RegistryKey(rawID: keyID, name: nil)
    }

    @usableFromInline var defaultKey: RegistryKey { RegistryKey(rawID: keyID | 2, name: nil) }

    // MARK: Resolving

    /// Resolves from `Container.shared`: the registered factory, or the key's default.
    public func callAsFunction() -> T {
        resolve(in: Container.shared)
    }

    /// Resolves from `container`: the registered factory, or the key's default. Traps where
    /// ``resolveOrThrow(in:)`` would throw (see the type's documentation).
    public func resolve(in container: Container) -> T {
        do {
            return try resolveOrThrow(in: container)
        } catch {
            fatalError(InjectionTrap.message(
                wrapper: keyID == 0 ? "@Factory" : "Factory", type: T.self, name: name,
                owner: owner, site: site, error: error),
                file: file, line: line)
        }
    }

    /// Resolves from `container` (`Container.shared` by default), or throws why it could not: a
    /// cycle, an ended scope, or — for the property-wrapper form — a missing registration or a
    /// factory that threw. Failures also reach `UnifiedDI.onResolutionError`.
    public func resolveOrThrow(in container: Container = .shared) throws(DIError) -> T {
        do {
            return try resolveCore(in: container)
        } catch {
            throw container.report(error)
        }
    }

    @usableFromInline
    func resolveCore(in container: Container) throws(DIError) -> T {
        do {
            return try container.resolveCore(key: overrideKey, type: T.self)
        } catch {
            guard let makeDefault, case .dependencyNotFound = error else { throw error }
            return try container.resolveFactoryDefault(makeDefault, key: defaultKey, scope: scope, site: site)
        }
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
        container.store(key: overrideKey, scope: scope, dependencies: [],
                        site: SourceLocation(fileID: file, line: line), factory: factory)
    }

    /// Drops what ``register(scope:in:file:line:factory:)`` registered in `container`
    /// (`Container.shared` by default), so the default applies again. Returns whether there was
    /// a registration.
    @discardableResult
    public func reset(in container: Container = .shared) -> Bool {
        container.remove(key: overrideKey, onlyIf: nil)
    }
}

/// Numbers the keys; each key takes two odd registry ids derived from its number.
let factoryKeyCounter = ManagedAtomic<UInt>(1)
