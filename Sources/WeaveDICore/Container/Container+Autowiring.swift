// Autowiring by initializer (`register(UserService.self, initializer: UserServiceImpl.init)`):
// WeaveDI resolves each parameter of the initializer. The parameter types are stored in the
// registration's record as its declared dependencies when it is made, so validation and the
// dependency graph know its edges without running it. The registration is otherwise an ordinary
// record of its lifetime: it is cached, waited for, cycle-checked and decorated like any other.
//
// The parameters are resolved through the container the resolution was asked of: the record's
// own container, or the child that delegated to it (the thread's stack says which, see
// `ThreadStack.delegate(to:)`; an async frame carries it in `AsyncFrame.requester`). So a child's
// override of a parameter applies to an autowired registration made in its parent.

extension Container {
    // MARK: Registration

    /// Registers `type`, built by `initializer` with each of its parameters resolved by WeaveDI
    /// (SwinjectAutoregistration's `autoregister`): no factory closure to write.
    ///
    /// ```swift
    /// container.register(UserService.self, scope: .singleton, initializer: UserServiceImpl.init)
    /// // resolves as `UserServiceImpl(api: resolve(), store: resolve())` would
    /// ```
    ///
    /// The parameter types are the registration's declared dependencies, known from the moment it
    /// is made: ``declaredDependencies(of:name:)`` lists them, ``dependencyGraph()`` shows their
    /// edges before anything is resolved, and ``validate()`` reports a parameter type that is not
    /// registered without building the registration. Each parameter is resolved unnamed, through
    /// the container the resolution was asked of (a child container's override applies to an
    /// autowired registration made in its parent). A shared lifetime builds its instance once,
    /// through the container whose resolution built it.
    ///
    /// An optional parameter (`logger: Logger?`) is an optional dependency: it gets the `Logger`
    /// that this container (or a parent, for the active contexts) resolves, and `nil` only when
    /// `Logger` is not registered at all. Any other failure of `Logger` (a cycle, its factory
    /// throwing, a dependency missing in its own graph, a scope failure) fails the resolution as
    /// for any parameter. A registration of the optional type itself (`register(Logger?.self)`,
    /// here or in a parent) wins over `Logger`'s. ``validate()`` does not count a missing optional
    /// parameter as a problem; ``declaredDependencies(of:name:)`` marks it optional.
    ///
    /// A parameter that cannot be resolved fails the resolution with that parameter's
    /// ``DIError`` (``DIError/dependencyNotFound(_:name:similar:)`` for a missing one, as a
    /// hand-written factory calling `resolveOrThrow` would); an error the initializer throws is
    /// ``DIError/factoryFailed(_:name:underlying:)``. Any number of parameters works, none
    /// included. When the type has several initializers, name the one you mean
    /// (`UserServiceImpl.init(api:store:)`), as Swift requires for any unapplied reference.
    ///
    /// Write the `initializer:` label: a trailing closure registers a factory
    /// (``register(_:scope:file:line:factory:)-(_,_,_,_,()->T)``).
    ///
    /// - Parameters:
    ///   - type: the type resolutions ask for (often a protocol the initializer's type conforms to).
    ///   - name: the name to register under, alongside any other registration of `type`; `nil` by default.
    ///   - scope: how long built instances live; ``Scope/transient`` by default.
    ///   - file: where the registration is made, for messages (filled in by the compiler).
    ///   - line: the line of the registration, for messages (filled in by the compiler).
    ///   - initializer: builds the instance from its resolved parameters (any function works).
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func register<T, each P>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat each P) throws -> T
    ) -> RegistrationHandle {
        storeAutowired(
            key: RegistryKey(type, name: name), scope: scope, context: nil, file: file, line: line,
            parameters: repeat (each P).self, factory: Container.autowiredFactory(initializer))
    }

    /// The factory of an autowired registration of `initializer`. Made in the caller's module
    /// (inlined), so the pack expansion is specialized for its types. An initializer without an
    /// optional parameter (found here, once) gets the plain expansion: its parameters pay nothing
    /// for optional ones.
    @inlinable @inline(__always)
    static func autowiredFactory<T, each P>(_ initializer: @escaping @Sendable (repeat each P) throws -> T)
        -> @Sendable () throws -> T
    {
        guard let optionals = OptionalParameters.of(repeat (each P).self) else {
            return {
                // The container is alive while its factory runs: used without a retain.
                try Container.autowiringTarget()._withUnsafeGuaranteedRef { container in
                    try initializer(repeat try container.autowiredParameter((each P).self))
                }
            }
        }
        return {
            try Container.autowiringTarget()._withUnsafeGuaranteedRef { container in
                var position = 0
                return try initializer(
                    repeat try container.autowiredParameter((each P).self, at: &position, optionals: optionals))
            }
        }
    }

    /// The factory of an async autowired registration of `initializer` (see ``autowiredFactory(_:)``).
    @inlinable @inline(__always)
    static func autowiredAsyncFactory<T, each P>(
        _ initializer: @escaping @Sendable (repeat each P) async throws -> T
    ) -> @Sendable () async throws -> T {
        guard let optionals = OptionalParameters.of(repeat (each P).self) else {
            return {
                let container = Container.asyncAutowiringTarget()
                return try await initializer(repeat try await container.autowiredParameterAsync((each P).self))
            }
        }
        return {
            let container = Container.asyncAutowiringTarget()
            var position = 0
            return try await initializer(
                repeat try await container.autowiredParameterAsync((each P).self, at: &position, optionals: optionals))
        }
    }

    /// Registers `type`, built by an async `initializer` (or a synchronous one) with each of its
    /// parameters resolved by `await`, so they may be async registrations themselves. Resolve it
    /// with ``resolveAsync(_:isolation:)``; a synchronous resolution fails with
    /// ``DIError/asyncResolutionRequired(_:name:)``. Everything else is as for
    /// ``register(_:name:scope:file:line:initializer:)``.
    ///
    /// ```swift
    /// container.registerAsync(Database.self, scope: .singleton, initializer: SQLDatabase.init)
    /// let database = try await container.resolveAsync(Database.self)
    /// ```
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func registerAsync<T, each P>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat each P) async throws -> T
    ) -> RegistrationHandle {
        storeAutowiredAsync(
            key: RegistryKey(type, name: name), scope: scope, context: nil, file: file, line: line,
            parameters: repeat (each P).self, factory: Container.autowiredAsyncFactory(initializer))
    }

    // MARK: Inspection

    /// The dependencies the registration of `type` (under `name`) declares, as this container
    /// resolves it (its own registration, else the nearest parent's, for the active contexts);
    /// `nil` when there is none.
    ///
    /// For an autowired registration (``register(_:name:scope:file:line:initializer:)``) they
    /// are the initializer's parameters, in order, each resolved unnamed: exactly what its
    /// factory resolves, an optional parameter (`Logger?`) marked
    /// ``Container/DeclaredDependency/isOptional`` with `Logger` as its ``Container/DeclaredDependency/type``. For a
    /// module they are what it listed in `dependencies:`; for a registration with a factory
    /// closure, nothing (what a closure resolves is known only once it runs: see
    /// ``dependencyGraph()``). Reading them runs nothing.
    public func declaredDependencies<T>(of type: T.Type, name: String? = nil) -> [DeclaredDependency]? {
        registration(of: RegistryKey(type, name: name))?.declaredDependencies.map(DeclaredDependency.init(declared:))
    }

    /// The record that resolving `key` here would use (here, else the nearest parent's; for a
    /// key with context registrations, the one that applies now).
    func registration(of key: RegistryKey) -> RegistrationRecord? {
        var container: Container? = self
        while let current = container {
            if let slot = current.registry.slot(for: key.id),
                let record = slot.lock.withLock({ slot.record(named: key.name)?.selected })
            {
                return record
            }
            container = current.parent
        }
        return nil
    }

    // MARK: Storage and resolution

    /// Stores an autowired registration: its record carries the parameter types.
    @usableFromInline
    func storeAutowired<T, each P>(
        key: RegistryKey, scope: Scope, context: RegistrationContext?, file: String, line: Int,
        parameters: repeat (each P).Type,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        let site = RegistrationSite(fileID: file, line: line)
        let dependencies = Container.types(repeat each parameters)
        return insert(key: key, type: T.self, scope: scope, site: site, context: context) {
            makeRecord(scope: scope, name: key.name, site: site, declaredDependencies: dependencies, factory: factory)
                .markedAutowired()
        }
    }

    /// Stores an async autowired registration: its record carries the parameter types.
    @usableFromInline
    func storeAutowiredAsync<T, each P>(
        key: RegistryKey, scope: Scope, context: RegistrationContext?, file: String, line: Int,
        parameters: repeat (each P).Type,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        let site = RegistrationSite(fileID: file, line: line)
        let dependencies = Container.types(repeat each parameters)
        return insert(key: key, type: T.self, scope: scope, site: site, context: context) {
            AsyncRecord(
                lifetime: scope, name: key.name, site: site, declaredDependencies: dependencies,
                type: T.self, asyncFactory: ErasedAsyncFactory(factory)
            ).markedAutowired()
        }
    }

    private static func types<each P>(_ types: repeat (each P).Type) -> [Any.Type] {
        var result: [Any.Type] = []
        for type in repeat each types { result.append(type) }
        return result
    }

    /// The container an autowired factory, running now on this thread, resolves its parameters
    /// through: the child whose resolution the factory's container serves, else that container.
    ///
    /// Every factory runs in a frame its container pushed (``ThreadStack/push(_:type:container:)``)
    /// and that container is alive while it runs; a child that delegated to it marked the depth
    /// below that frame.
    @inlinable @inline(__always)
    static func autowiringTarget() -> Unmanaged<Container> {
        let header = ThreadStack.current.header
        let depth = header.pointee.depth
        if let requester = header.pointee.requester, header.pointee.requesterDepth == depth &- 1 {
            return requester
        }
        let identity = header.pointee.base[depth &- 1].container
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: UInt(bitPattern: identity)).unsafelyUnwrapped)
    }

    /// ``autowiringTarget()`` for an async factory: its own frame (bound while it runs) names
    /// its container and the child that asked, if any.
    @usableFromInline
    static func asyncAutowiringTarget() -> Container {
        let frame = AsyncResolutionPath.top.unsafelyUnwrapped
        if let requester = frame.requester { return requester }
        // A frame's container is alive while its factory runs.
        return Unmanaged<Container>.fromOpaque(
            UnsafeRawPointer(bitPattern: UInt(bitPattern: frame.frame.container)).unsafelyUnwrapped
        ).takeUnretainedValue()
    }

    /// Resolves one parameter of an autowired initializer, as `resolveOrThrow` in a hand-written
    /// factory would (a failure is reported here, where the thread's stack shows the dependent).
    @inlinable
    func autowiredParameter<P>(_: P.Type) throws(DIError) -> P {
        do { return try resolveCore(key: RegistryKey(P.self), type: P.self) } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves one parameter of an async autowired initializer, as `resolveAsync` would.
    @inlinable
    func autowiredParameterAsync<P>(_: P.Type) async throws -> P {
        try await resolveAsyncEntry(key: RegistryKey(P.self), type: P.self)
    }
}

extension ThreadStack {
    /// A delegation of the current resolution to a parent, made by ``delegate(to:)``.
    struct Delegation {
        let header: UnsafeMutablePointer<Header>
        let requester: Unmanaged<Container>?
        let depth: Int

        /// Restores what the delegation replaced (an outer delegation's mark).
        @inline(__always)
        func end() {
            header.pointee.requester = requester
            header.pointee.requesterDepth = depth
        }
    }

    /// Marks that the resolution this thread is about to make in a parent was asked of
    /// `requester`: the factory that runs for it (one level deeper than now) is told so by
    /// `Container.autowiringTarget()`. `requester` must stay alive until ``Delegation/end()``.
    @inline(__always)
    func delegate(to requester: Container) -> Delegation {
        let saved = Delegation(
            header: header, requester: header.pointee.requester, depth: header.pointee.requesterDepth)
        header.pointee.requester = Unmanaged.passUnretained(requester)
        header.pointee.requesterDepth = header.pointee.depth
        return saved
    }
}
