import WeaveDICore

/// A dependency key whose default takes a parameter: ``Factory`` for values that need a runtime
/// value to be built (the Factory-3 `ParameterFactory`).
///
/// ```swift
/// extension Container {
///     static let userVM = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id) }
/// }
///
/// let model = Container.userVM("42")
/// Container.userVM.register { id in PreviewUserViewModel(id: id) }   // replaces the default
/// ```
///
/// - ``callAsFunction(_:)`` resolves from `Container.shared`: the factory registered with
///   ``register(scope:in:file:line:factory:)`` in the container or a parent, otherwise the
///   default, run with the key's `scope`. ``resolve(_:in:)`` and ``resolveOrThrow(_:in:)`` name
///   the container.
/// - The key's registrations are ordinary argument registrations in the container's one registry
///   (a factory taking one argument, of type `P`), under the key's own id, so everything the
///   container does for `register(T.self) { (p: P) in … }` applies: child containers see their
///   parents' registrations, `validate()` lists them among the registrations it cannot build
///   (``ValidationReport/unbuiltArgumentRegistrations``), cycles are detected, and shared
///   instances are built once per value however many threads ask.
/// - **Shared lifetimes are cached per parameter value**, keyed by equality (`==`, never by the
///   hash alone: two values whose hashes collide get their own instances). `P` must then be
///   `Hashable`; otherwise the resolution fails with
///   ``DIError/argumentNotHashable(_:name:argument:scope:)``. A default's shared instances live
///   in the root container (one per value per root); a registered factory's in the container it
///   was registered in.
/// - **Several values: `P` is a tuple.** `ParameterFactory<(String, Int), T> { id, page in … }` is
///   called with one tuple, `Container.page(("42", 2))`. Tuples are not `Hashable` in Swift, so
///   a tuple parameter works with ``Scope/transient`` only; a shared lifetime with a tuple fails
///   with `argumentNotHashable` naming the tuple type. For several values in a shared lifetime,
///   make `P` a `Hashable` struct.
/// - A read that has no value to return (the default threw, a cycle, a parameter that is not
///   `Hashable` in a shared lifetime) **stops the program** through ``callAsFunction(_:)`` and
///   ``resolve(_:in:)``, with a message naming the key's types, where it is declared and the
///   failure. ``resolveOrThrow(_:in:)`` throws the same failure as a ``DIError`` instead.
/// - Declare keys as `static let`: every `ParameterFactory { }` expression makes a new key.
/// - `ParameterFactory` is `Sendable` whatever `T` is (it holds only an immutable definition).
public struct ParameterFactory<P: Sendable, T>: Sendable {
    @usableFromInline let definition: ParameterFactoryDefinition<P, T>

    /// Declares a key whose default builds `T` from the parameter with `factory`, run with `scope`
    /// (a new instance per resolution unless said otherwise).
    public init(
        scope: Scope = .transient,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping @Sendable (P) -> T
    ) {
        definition = ParameterFactoryDefinition(scope: scope, makeDefault: factory, file: file, line: line)
    }

    /// Declares a key whose default `factory` may throw: what it throws fails the resolution
    /// (``resolveOrThrow(_:in:)`` throws it — a ``DIError`` as it is, another error wrapped in
    /// ``DIError/factoryFailed(_:name:underlying:)``).
    @_disfavoredOverload
    public init(
        scope: Scope = .transient,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ factory: @escaping @Sendable (P) throws -> T
    ) {
        definition = ParameterFactoryDefinition(scope: scope, makeDefault: factory, file: file, line: line)
    }

    // MARK: Resolving

    /// Resolves with `parameter` from `Container.shared`: the registered factory, or the default.
    /// Stops the program where ``resolveOrThrow(_:in:)`` would throw.
    public func callAsFunction(_ parameter: P) -> T {
        resolve(parameter, in: Container.shared)
    }

    /// Resolves with `parameter` from `container`: the factory registered there or in a parent,
    /// or the default. Stops the program where ``resolveOrThrow(_:in:)`` would throw.
    public func resolve(_ parameter: P, in container: Container) -> T {
        do {
            return try resolveCore(parameter, in: container)
        } catch {
            let error = container.report(error, thrown: true)
            fatalError(
                "The ParameterFactory<\(TypeNames.qualified(P.self)), \(TypeNames.qualified(T.self))> key declared at"
                    + " \(definition.site) has no value to return: \(error.description) Call the key's"
                    + " `resolveOrThrow(_:in:)` to get this failure as an error instead of a trap.",
                file: definition.file, line: definition.line)
        }
    }

    /// Resolves with `parameter` from `container` (`Container.shared` by default), or throws why
    /// it could not, as a ``DIError``; never stops the program. Failures also reach
    /// `UnifiedDI.onResolutionError`.
    public func resolveOrThrow(_ parameter: P, in container: Container = .shared) throws(DIError) -> T {
        do {
            return try resolveCore(parameter, in: container)
        } catch {
            throw container.report(error, thrown: true)
        }
    }

    func resolveCore(_ parameter: P, in container: Container) throws(DIError) -> T {
        let definition = definition
        try container.ensureAutoRegistered()
        // Most keys are never overridden: skip the look-up (and the miss it would throw) when no
        // container in the chain ever held a registration under the key.
        var askedAgain = false
        while container.hasSlot(forKeyID: definition.overrideKey.id) {
            do {
                return try container.resolveWithArguments(
                    key: definition.overrideKey, as: T.self, requester: nil, parameter)
            } catch {
                // Only the override's own absence falls back to the default. A registered factory
                // cannot throw, but its decorators can: a miss inside them (what they resolve) is
                // the override's failure, not a reason to build the default instead.
                guard case .dependencyNotFound(let missing, _, _) = error else { throw error }
                guard container.isRegistered(key: definition.overrideKey) else { break }
                // Registered after this resolution missed it: ask once more. A miss of another
                // type, or a second one, is the override's own.
                guard missing == T.self, !askedAgain else { throw error }
                askedAgain = true
            }
        }
        return try container.resolveParameterDefault(
            definition.makeDefault, parameter: parameter, key: definition.defaultKey, scope: definition.scope,
            site: definition.site)
    }

    // MARK: Registering

    /// Replaces the default: later resolutions in `container` (`Container.shared` by default) and
    /// its children build `T` with `factory`, with `scope` (shared lifetimes: one instance per
    /// parameter value, in `container`). Registering again replaces the earlier registration
    /// (subject to the container's ``Container/duplicatePolicy``).
    @discardableResult
    public func register(
        scope: Scope = .transient,
        in container: Container = .shared,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (P) -> T
    ) -> RegistrationHandle {
        container.storeWithParameter(
            key: definition.overrideKey, scope: scope, site: RegistrationSite(fileID: file, line: line),
            factory: factory)
    }

    /// Drops what ``register(scope:in:file:line:factory:)`` registered in `container`
    /// (`Container.shared` by default), so the default (or a parent's registration) applies
    /// again. Returns whether there was a registration.
    @discardableResult
    public func reset(in container: Container = .shared) -> Bool {
        container.remove(key: definition.overrideKey, onlyIf: nil)
    }

    /// Wraps every instance `container` (`Container.shared` by default) builds for this key —
    /// from a registered factory or from the default — in `decorator`, as
    /// ``Container/decorate(_:name:file:line:_:)`` does for a type: decorators compose in the
    /// order they were added, a shared instance is decorated once when built, and
    /// ``DecoratorHandle/remove()`` takes it off.
    ///
    /// Decorators belong to the container that builds: a default is built in the root container
    /// (decorate the key there, as `Container.shared` is), a registered factory in the container
    /// it was registered in.
    @discardableResult
    public func decorate(
        in container: Container = .shared,
        file: String = #fileID,
        line: Int = #line,
        _ decorator: @escaping @Sendable (T) throws -> T
    ) -> DecoratorHandle {
        container.decorate(
            keys: [definition.overrideKey, definition.defaultKey], type: T.self,
            site: RegistrationSite(fileID: file, line: line), decorator)
    }
}

/// What a ``ParameterFactory`` is: immutable, shared by every copy of it.
@usableFromInline
final class ParameterFactoryDefinition<P: Sendable, T>: Sendable {
    /// Where registered factories are stored (an odd id of its own, like a `Factory` key's).
    let overrideKey: RegistryKey
    /// Where a scoped default is installed, in the root container.
    let defaultKey: RegistryKey
    let scope: Scope
    let makeDefault: @Sendable (P) throws -> T
    let file: StaticString
    let line: UInt

    init(scope: Scope, makeDefault: @escaping @Sendable (P) throws -> T, file: StaticString, line: UInt) {
        // Two odd ids per key, from the counter `Factory` keys use (see RegistryKey).
        let keyID = (factoryKeyCounter.loadThenWrappingIncrement(ordering: .relaxed) << 2) | 1
        self.overrideKey = RegistryKey(rawID: keyID, name: nil)
        self.defaultKey = RegistryKey(rawID: keyID | 2, name: nil)
        self.scope = scope
        self.makeDefault = makeDefault
        self.file = file
        self.line = line
    }

    /// Where the key is declared.
    var site: RegistrationSite { RegistrationSite(fileID: "\(file)", line: Int(line)) }
}
