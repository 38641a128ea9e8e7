// Registrations whose factory takes runtime arguments (`register(T.self) { (id: String) in … }`,
// `resolve(T.self, argument: "42")`). They live in the registry like any registration (an
// `ArgumentRecord` in the slot of their type and name) and resolve through the one resolution
// protocol: a shared lifetime keeps one ordinary record per argument value, built, waited for
// and cycle-checked by `resolveShared` / `resolveSharedAsync`.

extension Container {
    // MARK: Registration

    /// Registers `factory`, which takes runtime arguments, to build `type`: resolve it with
    /// ``resolve(_:argument:)`` (one argument) or ``resolve(_:arguments:)`` (any number), passing
    /// values of exactly the types the factory takes, in order.
    ///
    /// ```swift
    /// container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
    /// let model = container.resolve(UserViewModel.self, argument: "42")
    /// ```
    ///
    /// The registration takes the place of any other registration of `type` (under the same name):
    /// a type is registered with arguments or without. Resolving it with other argument types, or
    /// without arguments, fails with ``DIError/argumentMismatch(_:name:expected:passed:)``.
    ///
    /// In a shared lifetime (``Scope/singleton``, ``Scope/weak``, a custom scope) there is one
    /// instance **per argument value**: arguments are keyed by equality (`==`, not by their hash,
    /// so values whose hashes collide get their own instances) and must be `Hashable`, else the
    /// resolution fails with ``DIError/argumentNotHashable(_:name:argument:scope:)``. Each
    /// per-argument instance is built once however many threads ask at once.
    ///
    /// A factory resolving its own type (with any arguments) is reported as a cycle: cycles are
    /// detected per type and name.
    @discardableResult
    public func register<T, A: Sendable, each B: Sendable>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: ArgumentFactory<T, A, repeat each B>(factory), isAsync: false)
    }

    /// Registers `factory`, which takes runtime arguments, to build `type` under `name` (see
    /// ``register(_:scope:file:line:factory:)-(_,_,_,_,(A,B)->T)``).
    @discardableResult
    public func register<T, A: Sendable, each B: Sendable>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type, name: name), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: ArgumentFactory<T, A, repeat each B>(factory), isAsync: false)
    }

    /// Registers an async `factory` taking runtime arguments: resolve it with
    /// ``resolveAsync(_:argument:isolation:)`` or ``resolveAsync(_:arguments:isolation:)``. Lifetimes
    /// and argument matching work as for the synchronous form; a synchronous resolution fails with
    /// ``DIError/asyncResolutionRequired(_:name:)``.
    @discardableResult
    public func registerAsync<T, A: Sendable, each B: Sendable>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) async throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: AsyncArgumentFactory<T, A, repeat each B>(factory), isAsync: true)
    }

    /// Registers an async `factory` taking runtime arguments, under `name`.
    @discardableResult
    public func registerAsync<T, A: Sendable, each B: Sendable>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (A, repeat each B) async throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: RegistryKey(type, name: name), scope: scope, site: RegistrationSite(fileID: file, line: line),
            argumentTypes: typesOf(A.self, repeat (each B).self),
            call: AsyncArgumentFactory<T, A, repeat each B>(factory), isAsync: true)
    }

    private func storeWithArguments<T>(
        _: T.Type, key: RegistryKey, scope: Scope, site: RegistrationSite, argumentTypes: [Any.Type], call: AnyObject,
        isAsync: Bool
    ) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: scope, site: site) {
            ArgumentRecord(
                lifetime: scope, name: key.name, site: site, type: T.self, argumentTypes: argumentTypes, call: call,
                isAsyncFactory: isAsync)
        }
    }

    // MARK: Resolution

    /// Resolves `type`, registered with a factory taking one argument, passing `argument`; `nil`
    /// (reported to `UnifiedDI.onResolutionError`) when it cannot. ``resolveOrThrow(_:argument:)``
    /// says why.
    public func resolve<T, A: Sendable>(_ type: T.Type, argument: A) -> T? {
        do { return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, argument) } catch {
            report(error)
            return nil
        }
    }

    /// Resolves `type`, registered with a factory taking these arguments, passing them in order.
    public func resolve<T, each A: Sendable>(_ type: T.Type, arguments: repeat each A) -> T? {
        do {
            return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, repeat each arguments)
        } catch {
            report(error)
            return nil
        }
    }

    /// Resolves the registration of `type` under `name`, passing `argument`.
    public func resolve<T, A: Sendable>(_ name: String, _ type: T.Type, argument: A) -> T? {
        do {
            return try resolveWithArguments(key: RegistryKey(type, name: name), as: T.self, requester: nil, argument)
        } catch {
            report(error)
            return nil
        }
    }

    /// Resolves the registration of `type` under `name`, passing `arguments` in order.
    public func resolve<T, each A: Sendable>(_ name: String, _ type: T.Type, arguments: repeat each A) -> T? {
        do {
            return try resolveWithArguments(
                key: RegistryKey(type, name: name), as: T.self, requester: nil, repeat each arguments)
        } catch {
            report(error)
            return nil
        }
    }

    /// Resolves `type` passing `argument`, or throws a ``DIError`` saying why it could not — among
    /// them ``DIError/argumentMismatch(_:name:expected:passed:)`` naming what the registration
    /// takes and what was passed.
    public func resolveOrThrow<T, A: Sendable>(_ type: T.Type, argument: A) throws -> T {
        do { return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, argument) } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves `type` passing `arguments` in order, or throws a ``DIError`` saying why.
    public func resolveOrThrow<T, each A: Sendable>(_ type: T.Type, arguments: repeat each A) throws -> T {
        do {
            return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, repeat each arguments)
        } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves the registration of `type` under `name` passing `argument`, or throws.
    public func resolveOrThrow<T, A: Sendable>(_ name: String, _ type: T.Type, argument: A) throws -> T {
        do {
            return try resolveWithArguments(key: RegistryKey(type, name: name), as: T.self, requester: nil, argument)
        } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves the registration of `type` under `name` passing `arguments`, or throws.
    public func resolveOrThrow<T, each A: Sendable>(_ name: String, _ type: T.Type, arguments: repeat each A) throws
        -> T
    {
        do {
            return try resolveWithArguments(
                key: RegistryKey(type, name: name), as: T.self, requester: nil, repeat each arguments)
        } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves `type` with `await`, passing `argument`: a registration with an async factory
    /// (``registerAsync(_:scope:file:line:factory:)-(_,_,_,_,(A,B)->T)``) or a
    /// synchronous one (run on the caller's actor).
    public func resolveAsync<T, A: Sendable>(
        _ type: T.Type, argument: A, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await resolveAsyncArgumentsEntry(key: RegistryKey(type), argument)
    }

    /// Resolves `type` with `await`, passing `arguments` in order.
    public func resolveAsync<T, each A: Sendable>(
        _ type: T.Type, arguments: repeat each A, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await resolveAsyncArgumentsEntry(key: RegistryKey(type), repeat each arguments)
    }

    /// Resolves the registration of `type` under `name` with `await`, passing `argument`.
    public func resolveAsync<T, A: Sendable>(
        _ name: String, _ type: T.Type, argument: A, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await resolveAsyncArgumentsEntry(key: RegistryKey(type, name: name), argument)
    }

    /// Resolves the registration of `type` under `name` with `await`, passing `arguments`.
    public func resolveAsync<T, each A: Sendable>(
        _ name: String, _ type: T.Type, arguments: repeat each A, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await resolveAsyncArgumentsEntry(key: RegistryKey(type, name: name), repeat each arguments)
    }

    private func resolveAsyncArgumentsEntry<T, each A: Sendable>(
        key: RegistryKey, _ arguments: repeat each A, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        do {
            return try await resolveAsyncWithArguments(key: key, requester: nil, repeat each arguments)
        } catch let error as DIError {
            throw reportAsync(error)
        } catch let reported as ReportedAsyncFailure {
            throw propagateReported(reported.error)
        }
    }

    // MARK: Resolution path

    /// The registration under `key` here (not in a parent), for a resolution with arguments.
    private func findArgumentRecord(key: RegistryKey) -> FoundArguments {
        guard let slot = registry.slot(for: key.id) else { return .missing }
        let lock = slot.lock
        lock.lock()
        defer { lock.unlock() }
        guard let found = slot.findCountingResolution(named: key.name) else { return .missing }
        // A key with context registrations: the entry that applies now, or the parent's.
        guard let selected = found.takeUnretainedValue().selected else { return .missing }
        guard let arguments = selected as? ArgumentRecord else { return .withoutArguments }
        return .arguments(arguments, lock)
    }

    private enum FoundArguments {
        case missing
        case withoutArguments
        case arguments(ArgumentRecord, WordLock)
    }

    /// Resolves `key` with `arguments` without reporting.
    func resolveWithArguments<T, each A: Sendable>(
        key: RegistryKey, as _: T.Type, requester: Container?, _ arguments: repeat each A
    ) throws(DIError) -> T {
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue,
            let sandbox = try prepareResolution()
        {
            return try sandbox.resolveWithArguments(key: key, as: T.self, requester: nil, repeat each arguments)
        }
        let record: ArgumentRecord
        let lock: WordLock
        switch findArgumentRecord(key: key) {
        case .missing:
            if let parent {
                return try parent.resolveWithArguments(
                    key: key, as: T.self, requester: requester ?? self, repeat each arguments)
            }
            throw DIError.dependencyNotFound(T.self, name: key.name)
        case .withoutArguments:
            throw DIError.argumentMismatch(
                T.self, name: key.name, expected: [], passed: typesOf(repeat (each A).self))
        case .arguments(let found, let foundLock):
            (record, lock) = (found, foundLock)
        }
        // The argument types compared one by one (the caller's metadata, no look-up), then no cast:
        // the record was made for `T` (its key says so) taking exactly these arguments.
        guard !record.isAsyncFactory, record.accepts(repeat (each A).self) else {
            throw mismatch(record, key: key, type: T.self, passing: repeat (each A).self)
        }
        let factory = unsafeDowncast(record.call, to: ArgumentFactory<T, repeat each A>.self)
        if record.lifetime == .transient {
            return try runFactory({ try factory.call(repeat each arguments) }, key: key, type: T.self)
        }
        let values = try argumentValues(record, key: key, type: T.self, repeat each arguments)
        let instance = record.instanceRecord(for: values, lock: lock) {
            makeRecord(
                scope: record.lifetime, name: key.name, site: record.site, declaredDependencies: [],
                factory: { try factory.call(repeat each arguments) })
        }
        if instance.scopeTag == .custom {
            return try resolveScoped(
                instance, key: key, slotLock: lock, requester: requester ?? self,
                cellSlot: UInt(bitPattern: ObjectIdentifier(instance)))
        }
        return try resolve(record: instance, key: key, lock: lock, type: T.self, requester: requester)
    }

    /// Resolves `key` with `arguments` and `await`, without reporting.
    func resolveAsyncWithArguments<T, each A: Sendable>(
        key: RegistryKey, requester: Container?, _ arguments: repeat each A,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue,
            let sandbox = try prepareResolution()
        {
            return try await sandbox.resolveAsyncWithArguments(key: key, requester: nil, repeat each arguments)
        }
        let record: ArgumentRecord
        let lock: WordLock
        switch findArgumentRecord(key: key) {
        case .missing:
            if let parent {
                return try await parent.resolveAsyncWithArguments(
                    key: key, requester: requester ?? self, repeat each arguments)
            }
            throw DIError.dependencyNotFound(T.self, name: key.name)
        case .withoutArguments:
            // The synchronous path says whether it is an async factory or takes no arguments.
            return try resolveWithArguments(key: key, as: T.self, requester: requester, repeat each arguments)
        case .arguments(let found, let foundLock):
            (record, lock) = (found, foundLock)
        }
        // A synchronous registration: the synchronous path, on the caller's actor.
        guard record.isAsyncFactory else {
            noteAsyncEdge(to: key, type: T.self)
            return try resolveWithArguments(key: key, as: T.self, requester: requester, repeat each arguments)
        }
        guard record.accepts(repeat (each A).self) else {
            throw mismatch(record, key: key, type: T.self, passing: repeat (each A).self)
        }
        let factory = unsafeDowncast(record.call, to: AsyncArgumentFactory<T, repeat each A>.self)
        let make = {
            AsyncRecord(
                lifetime: record.lifetime, name: key.name, site: record.site, declaredDependencies: [], type: T.self,
                asyncFactory: ErasedAsyncFactory { try await factory.call(repeat each arguments) })
        }
        // A transient's record is made per resolution: it only carries the arguments to the factory.
        let instance =
            record.lifetime == .transient
            ? make()
            : record.instanceRecord(
                for: try argumentValues(record, key: key, type: T.self, repeat each arguments), lock: lock, make: make)
        // Made by `make` above: an `AsyncRecord`.
        let async = unsafeDowncast(instance, to: AsyncRecord.self)
        return try await resolveAsyncFactory(
            async, key: key, lock: lock, requester: requester, cellSlot: UInt(bitPattern: ObjectIdentifier(async)))
    }

    /// The failure of a resolution whose arguments do not fit `record`.
    private func mismatch<T, each A>(
        _ record: ArgumentRecord, key: RegistryKey, type _: T.Type, passing _: repeat (each A).Type
    ) -> DIError {
        // The right arguments, for an async factory resolved synchronously.
        if record.call is AsyncArgumentFactory<T, repeat each A> {
            return .asyncResolutionRequired(T.self, name: key.name)
        }
        return .argumentMismatch(
            T.self, name: key.name, expected: record.expectedArguments,
            passed: typesOf(repeat (each A).self))
    }

    /// The cache key of a shared lifetime's resolution (computed with no lock held: `==` and
    /// `hash(into:)` are the caller's code).
    private func argumentValues<T, each A: Sendable>(
        _ record: ArgumentRecord, key: RegistryKey, type _: T.Type, _ arguments: repeat each A
    ) throws(DIError) -> ArgumentValues {
        switch ArgumentValues.make(repeat each arguments) {
        case .success(let values): return values
        case .failure(let notHashable):
            throw DIError.argumentNotHashable(
                T.self, name: key.name, argument: notHashable.type, scope: record.lifetime.description)
        }
    }
}
