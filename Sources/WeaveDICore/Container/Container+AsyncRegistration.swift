extension Container {
    /// Registers an async `factory` to build `type`: a service built with `await` (a database pool
    /// that connects, a configuration fetched at start-up, a keychain item read on the main actor).
    ///
    /// Resolve it with ``resolveAsync(_:isolation:)``. Every lifetime works as for a synchronous factory: a
    /// ``Scope/singleton`` (or custom-scope instance) is built exactly once however many tasks ask
    /// at once, the others suspending (no thread blocks) until it is built. A factory isolated to a
    /// global actor (`{ @MainActor in … }`) runs on that actor whoever resolves it.
    ///
    /// Resolving it synchronously (`resolve`, `resolveOrThrow`, a property wrapper) builds nothing
    /// and waits for nothing: it fails with ``DIError/asyncResolutionRequired(_:name:)``.
    ///
    /// ```swift
    /// container.registerAsync(Database.self, scope: .singleton) {
    ///     try await Database.open(at: path)
    /// }
    /// let database = try await container.resolveAsync(Database.self)
    /// ```
    @discardableResult
    public func registerAsync<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        storeAsync(
            key: RegistryKey(type), scope: scope, dependencies: [],
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Registers an async `factory` to build `type` under `name`, alongside any other registration
    /// of `type`.
    @discardableResult
    public func registerAsync<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        storeAsync(
            key: RegistryKey(type, name: name), scope: scope, dependencies: [],
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Stores an async factory's registration under `key`.
    package func storeAsync<T>(
        key: RegistryKey,
        scope: Scope,
        dependencies: [Any.Type],
        site: RegistrationSite,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: scope, site: site) {
            AsyncRecord(
                lifetime: scope, name: key.name, site: site, declaredDependencies: dependencies,
                type: T.self, asyncFactory: ErasedAsyncFactory(factory))
        }
    }
}
