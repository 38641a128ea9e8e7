// Context registrations: a variant of a key's registration for tests, previews, debug builds or
// a launch argument. It is stored with the key's plain registration (see `ContextualRecord`),
// so it keeps its own lifetime, handle and instances, and costs nothing to keys without one.

extension Container {
    /// Registers `factory` to build `type` while `context` is active (see ``RegistrationContext``
    /// for when each context is active, and which wins when several are). While it is active it
    /// replaces the plain registration of `type` in this container; otherwise resolutions use the
    /// plain registration, or, when there is none here, the parent's.
    ///
    /// ```swift
    /// container.register(APIClient.self, scope: .singleton) { URLSessionAPIClient() }
    /// container.register(APIClient.self, scope: .singleton, in: .test) { MockAPIClient() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: the type resolutions ask for.
    ///   - scope: the lifetime of this registration's instances, its own: a `.singleton` registered
    ///     for `.test` is a different instance from the plain registration's singleton.
    ///   - context: when it applies.
    ///   - file: where the registration is made, for messages (filled in by the compiler).
    ///   - line: the line of the registration, for messages (filled in by the compiler).
    ///   - factory: builds the instance.
    /// - Returns: a handle whose ``RegistrationHandle/unregister()`` removes this context
    ///   registration only. Registering the same type and context again replaces it (subject to
    ///   ``duplicatePolicy``); a plain registration does not.
    @discardableResult
    public func register<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        store(
            key: RegistryKey(type), scope: scope, context: context, site: RegistrationSite(fileID: file, line: line),
            factory: factory)
    }

    /// Registers `factory` to build `type` under `name` while `context` is active; see
    /// ``register(_:scope:in:file:line:factory:)-(_,_,_,_,_,()->T)``.
    @discardableResult
    public func register<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        store(
            key: RegistryKey(type, name: name), scope: scope, context: context,
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Registers an async `factory` to build `type` while `context` is active; resolve it with
    /// `resolveAsync`. See ``register(_:scope:in:file:line:factory:)-(_,_,_,_,_,()->T)``.
    @discardableResult
    public func registerAsync<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        storeAsync(
            key: RegistryKey(type), scope: scope, context: context, site: RegistrationSite(fileID: file, line: line),
            factory: factory)
    }

    /// Registers an async `factory` to build `type` under `name` while `context` is active.
    @discardableResult
    public func registerAsync<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        in context: RegistrationContext,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        storeAsync(
            key: RegistryKey(type, name: name), scope: scope, context: context,
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Removes the registration of `type` (under `name`) for `context`, leaving the plain one and
    /// the other contexts'. Returns whether there was one.
    @discardableResult
    public func unregister<T>(_ type: T.Type, name: String? = nil, in context: RegistrationContext) -> Bool {
        remove(key: RegistryKey(type, name: name), context: context, onlyIf: nil)
    }

    /// Stores a context registration of `factory` under `key` (any key: a type's, or a `Factory` key's).
    package func store<T>(
        key: RegistryKey,
        scope: Scope,
        context: RegistrationContext,
        site: RegistrationSite,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: scope, site: site, context: context) {
            makeRecord(scope: scope, name: key.name, site: site, declaredDependencies: [], factory: factory)
        }
    }

    /// Stores a context registration of an async `factory` under `key`.
    package func storeAsync<T>(
        key: RegistryKey,
        scope: Scope,
        context: RegistrationContext,
        site: RegistrationSite,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: scope, site: site, context: context) {
            AsyncRecord(
                lifetime: scope, name: key.name, site: site, declaredDependencies: [],
                type: T.self, asyncFactory: ErasedAsyncFactory(factory))
        }
    }
}
