// Optional parameters of an autowired initializer (`init(api: APIClient, logger: Logger?)`): the
// parameter is `Logger` when it is registered, `nil` when it is not (SwinjectAutoregistration's
// behaviour). Which parameters are optional is found once, when the registration is made (a
// conformance check per parameter type); a registration without one runs the plain autowired
// factory, so its parameters pay nothing for this.

/// A parameter type WeaveDI autowires as optional: `Optional` is the one conforming type.
@usableFromInline
protocol AutowiredOptional {
    /// The wrapped type: `Logger` for `Logger?`.
    static var wrappedType: Any.Type { get }
    /// Resolves the parameter through `container` (see ``Container/autowiredOptional(_:)``).
    static func autowired(in container: Container) throws(DIError) -> Self
    /// Resolves the parameter through `container` with `await`.
    static func autowiredAsync(in container: Container) async throws -> Self
}

extension Optional: AutowiredOptional {
    @usableFromInline static var wrappedType: Any.Type { Wrapped.self }

    @usableFromInline
    static func autowired(in container: Container) throws(DIError) -> Self {
        try container.autowiredOptional(Wrapped.self)
    }

    @usableFromInline
    static func autowiredAsync(in container: Container) async throws -> Self {
        try await container.autowiredOptionalAsync(Wrapped.self)
    }
}

/// Which parameters of an autowired initializer are optional, found when it is registered: the
/// `AutowiredOptional` type of each optional parameter, `nil` for the others. (Unchecked: it holds
/// only metatypes, which are immutable.)
@usableFromInline
struct OptionalParameters: @unchecked Sendable {
    @usableFromInline let types: [(any AutowiredOptional.Type)?]

    /// The optional parameters among `parameters`; `nil` when there is none.
    @usableFromInline
    static func of<each P>(_ parameters: repeat (each P).Type) -> OptionalParameters? {
        var types: [(any AutowiredOptional.Type)?] = []
        var any = false
        for parameter in repeat each parameters {
            let optional = parameter as? any AutowiredOptional.Type
            any = any || optional != nil
            types.append(optional)
        }
        return any ? OptionalParameters(types: types) : nil
    }

    private init(types: [(any AutowiredOptional.Type)?]) { self.types = types }
}

extension Container {
    /// Resolves the optional parameter `W?` of an autowired initializer through this container:
    /// a registration of `W?` itself wins (here or in a parent); else `W` when it is registered
    /// here or in a parent (for the active contexts); else `nil`. Every failure of a registration
    /// that applies is thrown (reported here), as for any parameter: only a missing `W` is `nil`.
    @usableFromInline
    func autowiredOptional<W>(_: W.Type) throws(DIError) -> W? {
        if isRegistered(key: RegistryKey(W?.self)) { return try autowiredParameter(W?.self) }
        let key = RegistryKey(W.self)
        guard let registration = applyingRegistration(key: key) else { return nil }
        do { return try resolveCore(key: key, type: W.self) } catch {
            if isMissed(registration, key: key, type: W.self, error: error) { return nil }
            throw report(error, thrown: true)
        }
    }

    /// The registration of `key` that applies through this container (here or in a parent, for
    /// the active contexts), if any. Kept (retained) to be compared after a failed resolution.
    private func applyingRegistration(key: RegistryKey) -> RegistrationRecord? {
        if let slot = registry.slot(for: key.id),
            let record = slot.lock.withLock({ slot.record(named: key.name)?.selected })
        {
            return record
        }
        return parent?.applyingRegistration(key: key)
    }

    /// Whether `error`, from resolving `key` after `registration` was found to apply, says only
    /// that another thread unregistered (or replaced) it in between: the resolution missed `W`,
    /// so the parameter is `nil`. With the same registration still applying, a `W` missing was
    /// missed inside `W`'s own graph: a failure. (Asking only whether `W` is registered again
    /// took an unregistration followed by a new registration for such a failure.)
    private func isMissed(_ registration: RegistrationRecord, key: RegistryKey, type: Any.Type, error: DIError) -> Bool
    {
        guard case .dependencyNotFound(let missing, nil, _) = error, ObjectIdentifier(missing) == ObjectIdentifier(type)
        else { return false }
        return applyingRegistration(key: key) !== registration
    }

    /// ``autowiredOptional(_:)`` for an async initializer: resolves with `await`.
    @usableFromInline
    func autowiredOptionalAsync<W>(_: W.Type) async throws -> W? {
        if isRegistered(key: RegistryKey(W?.self)) { return try await autowiredParameterAsync(W?.self) }
        let key = RegistryKey(W.self)
        guard let registration = applyingRegistration(key: key) else { return nil }
        // As the synchronous form: a registration unregistered between the look-up and the
        // resolution is `nil`, not a failure (this form used to throw `dependencyNotFound`).
        do {
            let value: W = try await resolveAsyncCore(key: key, requester: nil)
            return value
        } catch let error as DIError {
            if isMissed(registration, key: key, type: W.self, error: error) { return nil }
            throw reportAsync(error)
        } catch let reported as ReportedAsyncFailure {
            throw propagateReported(reported.error)
        }
    }

    /// Resolves parameter `position` of an autowired initializer with optional parameters
    /// (`optionals`), and moves `position` on.
    @inlinable
    func autowiredParameter<P>(_: P.Type, at position: inout Int, optionals: OptionalParameters) throws(DIError) -> P {
        defer { position &+= 1 }
        guard let optional = optionals.types[position] else { return try autowiredParameter(P.self) }
        // `optional` is `P` (found from `P` at registration), so the cast succeeds; a failure
        // would be WeaveDI's own bug, reported as a miss rather than a trap.
        guard let value = try optional.autowired(in: self) as? P else { throw .dependencyNotFound(P.self) }
        return value
    }

    /// ``autowiredParameter(_:at:optionals:)`` for an async initializer.
    @inlinable
    func autowiredParameterAsync<P>(_: P.Type, at position: inout Int, optionals: OptionalParameters) async throws
        -> P
    {
        defer { position &+= 1 }
        guard let optional = optionals.types[position] else { return try await autowiredParameterAsync(P.self) }
        guard let value = try await optional.autowiredAsync(in: self) as? P else {
            throw DIError.dependencyNotFound(P.self)
        }
        return value
    }
}

extension Container {
    /// One dependency a registration declares: a module's `dependencies:` entry, or a parameter of
    /// an autowired initializer.
    public struct DeclaredDependency: Sendable, Hashable, CustomStringConvertible {
        /// The type resolved for it: the parameter's type, or for an optional parameter (`Logger?`)
        /// its wrapped type (`Logger`).
        public let type: Any.Type
        /// Whether it is optional: an optional parameter of an autowired initializer gets `nil` when
        /// ``type`` is not registered (and no registration of the optional type itself applies).
        /// Validation does not count such a dependency as missing.
        public let isOptional: Bool
        /// The type as declared: ``type``, or `type?` for an optional parameter.
        public let declaredType: Any.Type

        /// The dependency declared as `declared` (optional when it is an `Optional` type).
        package init(declared: Any.Type) {
            declaredType = declared
            if let optional = declared as? any AutowiredOptional.Type {
                type = optional.wrappedType
                isOptional = true
            } else {
                type = declared
                isOptional = false
            }
        }

        /// The type as messages spell it, with `?` when optional: `MyApp.Logger?`.
        public var description: String { TypeNames.qualified(type) + (isOptional ? "?" : "") }

        /// Whether both declare the same type (so the same optionality).
        public static func == (lhs: DeclaredDependency, rhs: DeclaredDependency) -> Bool {
            lhs.declaredType == rhs.declaredType
        }

        /// Hashes the declared type.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(declaredType)) }
    }
}
