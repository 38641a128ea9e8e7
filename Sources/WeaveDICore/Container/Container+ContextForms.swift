// Context variants of the registration forms beyond plain factories: factories taking arguments,
// autowired initializers and multi-binding contributions. Each is stored as a context entry of its key (`ContextualRecord`),
// exactly as `register(_:scope:in:factory:)` stores a plain factory, so the same precedence,
// the same release-build rule and the same validation and graph apply.

extension Container {
    // MARK: Arguments

    /// Registers `factory`, which takes runtime arguments, to build `type` while `context` is
    /// active (see ``RegistrationContext`` for when it is, and which context wins). While it is
    /// active it replaces this container's plain registration of `type`; otherwise resolutions
    /// use the plain one (or, when there is none here, the parent's).
    ///
    /// ```swift
    /// container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
    /// container.register(UserViewModel.self, in: .test) { (id: String) in UserViewModel(id: id, api: MockAPI()) }
    /// ```
    ///
    /// Arguments are matched, and shared lifetimes keep one instance per argument value, as for
    /// ``register(_:scope:file:line:factory:)-(_,_,_,_,(A,B)->T)``; this registration's instances
    /// are its own. The returned handle removes this context registration only.
    @discardableResult
    public func register<T, A: Sendable, each B: Sendable>(
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: ArgumentFactory<T, A, repeat each B>(factory), isAsync: false, context: context)
    }

    /// Registers `factory`, which takes runtime arguments, to build `type` under `name` while
    /// `context` is active (see ``register(_:scope:in:file:line:factory:)-(_,_,_,_,_,(A,B)->T)``).
    @discardableResult
    public func register<T, A: Sendable, each B: Sendable>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type, name: name), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: ArgumentFactory<T, A, repeat each B>(factory), isAsync: false, context: context)
    }

    /// Registers an async `factory` taking runtime arguments to build `type` while `context` is
    /// active; resolve it with `resolveAsync(_:argument:)` or `resolveAsync(_:arguments:)`.
    @discardableResult
    public func registerAsync<T, A: Sendable, each B: Sendable>(
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) async throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: AsyncArgumentFactory<T, A, repeat each B>(factory), isAsync: true, context: context)
    }

    // MARK: Autowiring

    /// Registers `type`, built by `initializer` with each of its parameters resolved by WeaveDI,
    /// while `context` is active: the context variant of
    /// ``register(_:name:scope:file:line:initializer:)``, with the same parameter rules (optional
    /// parameters included) and the same declared dependencies, which ``validate()`` and
    /// ``dependencyGraph()`` read while the context applies.
    ///
    /// ```swift
    /// container.register(UserService.self, initializer: UserServiceImpl.init)
    /// container.register(UserService.self, in: .test, initializer: MockUserService.init)
    /// ```
    ///
    /// The returned handle removes this context registration only.
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func register<T, each P>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat each P) throws -> T
    ) -> RegistrationHandle {
        storeAutowired(
            key: RegistryKey(type, name: name), scope: scope, context: context, file: file, line: line,
            parameters: repeat (each P).self, factory: Container.autowiredFactory(initializer))
    }

    /// Registers `type`, built by an async `initializer` with each parameter resolved by
    /// `await`, while `context` is active (see ``registerAsync(_:name:scope:file:line:initializer:)``).
    @inlinable
    @discardableResult
    @_disfavoredOverload
    public func registerAsync<T, each P>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        initializer: @escaping @Sendable (repeat each P) async throws -> T
    ) -> RegistrationHandle {
        storeAutowiredAsync(
            key: RegistryKey(type, name: name), scope: scope, context: context, file: file, line: line,
            parameters: repeat (each P).self, factory: Container.autowiredAsyncFactory(initializer))
    }

    // MARK: Multi-binding

    /// Adds `factory` to the implementations of `type` that ``resolveAll(_:)`` returns while
    /// `context` is active: the context variant of ``register(into:name:scope:file:line:factory:)``.
    ///
    /// ```swift
    /// container.register(into: Plugin.self, name: "analytics") { LiveAnalytics() }
    /// container.register(into: Plugin.self, name: "analytics", in: .test) { RecordingAnalytics() }
    /// container.register(into: Plugin.self, in: .debug) { DebugMenuPlugin() }
    /// ```
    ///
    /// Under a `name`, it replaces the plain contribution of that name while its context is active
    /// (contexts of one name compete by ``RegistrationContext`` precedence), keeping the plain
    /// one's place in the order. Unnamed, it is a contribution of its own, present only while its
    /// context is active. The returned handle removes this context contribution only.
    @discardableResult
    public func register<P>(
        into type: P.Type,
        name: String? = nil,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> P
    ) -> RegistrationHandle {
        store(
            key: contributionKey(P.self, name: name), scope: scope, context: context,
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Adds an async `factory` to the implementations of `type` while `context` is active (see
    /// ``register(into:name:scope:in:file:line:factory:)``); ``resolveAllAsync(_:isolation:)``
    /// builds it.
    @discardableResult
    public func registerAsync<P>(
        into type: P.Type,
        name: String? = nil,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> P
    ) -> RegistrationHandle {
        storeAsync(
            key: contributionKey(P.self, name: name), scope: scope, context: context,
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }
}
