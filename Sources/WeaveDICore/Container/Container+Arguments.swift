// Registrations whose factory takes runtime arguments (`register(T.self) { (id: String) in … }`,
// `resolve(T.self, argument: "42")`). They live in the registry like any registration (an
// `ArgumentRecord` in the slot of their type and name) and resolve through the one resolution
// protocol: a shared lifetime keeps one ordinary record per argument value, built, waited for
// and cycle-checked by `resolveShared` / `resolveSharedAsync`.
//
// Every public entry point below is a one-line call into one of two cores, `resolveWithArguments`
// (synchronous) and `resolveAsyncWithArguments`, which share the look-up and the type check
// (`argumentRecord`). The entry points and the synchronous core are `@inlinable`: the caller's
// module compiles them for its own `T` and argument types, so a transient resolution with
// arguments is the plain transient path plus one comparison of metadata pointers per argument
// (no generic-metadata look-up, no existential cast, nothing allocated but the instance).

import Atomics

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

    /// Stores `factory`, taking one parameter, under `key` (a `ParameterFactory` key's).
    package func storeWithParameter<T, P: Sendable>(
        key: RegistryKey, scope: Scope, site: RegistrationSite, factory: @escaping @Sendable (P) throws -> T
    ) -> RegistrationHandle {
        storeWithArguments(
            T.self, key: key, scope: scope, site: site, argumentTypes: [P.self], call: ArgumentFactory<T, P>(factory),
            isAsync: false)
    }

    /// Stores a factory taking arguments under `key`, for `context` (`nil`: the plain registration).
    func storeWithArguments<T>(
        _: T.Type, key: RegistryKey, scope: Scope, site: RegistrationSite, argumentTypes: [Any.Type], call: AnyObject,
        isAsync: Bool, context: RegistrationContext? = nil
    ) -> RegistrationHandle {
        insert(key: key, type: T.self, scope: scope, site: site, context: context) {
            ArgumentRecord(
                lifetime: scope, name: key.name, site: site, type: T.self, argumentTypes: argumentTypes, call: call,
                isAsyncFactory: isAsync)
        }
    }

    /// Stores a synchronous factory taking arguments under `key` unless a registration is there
    /// already (a `ParameterFactory` key's scoped default, installed once in the root; a concurrent
    /// `register` wins).
    package func storeWithParameterIfAbsent<T, P: Sendable>(
        key: RegistryKey, scope: Scope, site: RegistrationSite, factory: @escaping @Sendable (P) throws -> T
    ) {
        registry.withSlotForWriting(id: key.id) { slot, sequence in
            if slot.lock.withLock({ slot.record(named: key.name) != nil }) { return }
            // Made outside the slot lock (an allocation); the write lock keeps other writers out.
            let record = ArgumentRecord(
                lifetime: scope, name: key.name, site: site, type: T.self, argumentTypes: [P.self],
                call: ArgumentFactory<T, P>(factory), isAsyncFactory: false)
            slot.lock.withLock { _ = slot.setRecord(record, named: key.name, sequence: sequence) }
        }
    }

    // MARK: Resolution

    /// Resolves `type`, registered with a factory taking one argument, passing `argument`; `nil`
    /// (reported to `UnifiedDI.onResolutionError`) when it cannot. ``resolveOrThrow(_:argument:)``
    /// says why.
    @inlinable
    public func resolve<T, A: Sendable>(_ type: T.Type, argument: A) -> T? {
        do { return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, argument) } catch {
            report(error)
            return nil
        }
    }

    /// Resolves `type`, registered with a factory taking these arguments, passing them in order.
    @inlinable
    public func resolve<T, each A: Sendable>(_ type: T.Type, arguments: repeat each A) -> T? {
        do {
            return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, repeat each arguments)
        } catch {
            report(error)
            return nil
        }
    }

    /// Resolves the registration of `type` under `name`, passing `argument`.
    @inlinable
    public func resolve<T, A: Sendable>(_ name: String, _ type: T.Type, argument: A) -> T? {
        do {
            return try resolveWithArguments(key: RegistryKey(type, name: name), as: T.self, requester: nil, argument)
        } catch {
            report(error)
            return nil
        }
    }

    /// Resolves the registration of `type` under `name`, passing `arguments` in order.
    @inlinable
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
    @inlinable
    public func resolveOrThrow<T, A: Sendable>(_ type: T.Type, argument: A) throws -> T {
        do { return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, argument) } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves `type` passing `arguments` in order, or throws a ``DIError`` saying why.
    @inlinable
    public func resolveOrThrow<T, each A: Sendable>(_ type: T.Type, arguments: repeat each A) throws -> T {
        do {
            return try resolveWithArguments(key: RegistryKey(type), as: T.self, requester: nil, repeat each arguments)
        } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves the registration of `type` under `name` passing `argument`, or throws.
    @inlinable
    public func resolveOrThrow<T, A: Sendable>(_ name: String, _ type: T.Type, argument: A) throws -> T {
        do {
            return try resolveWithArguments(key: RegistryKey(type, name: name), as: T.self, requester: nil, argument)
        } catch {
            throw report(error, thrown: true)
        }
    }

    /// Resolves the registration of `type` under `name` passing `arguments`, or throws.
    @inlinable
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

    /// The one async entry: resolves and reports.
    private func resolveAsyncArgumentsEntry<T, each A: Sendable>(
        key: RegistryKey, _ arguments: repeat each A, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        do {
            return try await resolveAsyncWithArguments(key: key, as: T.self, requester: nil, repeat each arguments)
        } catch let error as DIError {
            throw reportAsync(error)
        } catch let reported as ReportedAsyncFailure {
            throw propagateReported(reported.error)
        }
    }

    // MARK: Resolution path

    /// What ``argumentRecord(key:as:passing:)`` found.
    @usableFromInline
    enum ArgumentLookup {
        /// The registration, retained, its argument types checked; `lock` is its slot's lock.
        case found(ArgumentRecord, WordLock)
        /// Resolve in this container instead (a validation sandbox diverts this one's resolutions).
        case diverted(Container)
        /// Nothing registered under the key here.
        case missing
    }

    /// The registration under `key` in this container (not a parent) and a check that it takes
    /// exactly the argument types `A` — shared by the synchronous and the async path.
    ///
    /// Specialized in the caller: the type check compares each `A`'s metadata pointer (a
    /// constant there) with the one the registration recorded, so no metadata is looked up and
    /// nothing is cast. A record tagged `.arguments` is an `ArgumentRecord` (the tag says so),
    /// so it is downcast without a dynamic check.
    @inlinable @inline(__always)
    func argumentRecord<T, each A>(key: RegistryKey, as _: T.Type, passing _: repeat (each A).Type)
        throws(DIError) -> ArgumentLookup
    {
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue,
            let sandbox = try prepareResolution()
        {
            return .diverted(sandbox)
        }
        guard let slot = currentTable.load(ordering: .acquiring)._withUnsafeGuaranteedRef({ $0.find(key.id) }) else {
            return .missing
        }
        let lock = slot.lock
        lock.lock()
        guard let found = slot.findCountingResolution(named: key.name) else {
            lock.unlock()
            return .missing
        }
        let record: ArgumentRecord
        switch found._withUnsafeGuaranteedRef({ $0.scopeTag }) {
        case .arguments:
            // Retained while the lock keeps it in the slot: the record may be replaced meanwhile.
            record = unsafeDowncast(found.takeUnretainedValue(), to: ArgumentRecord.self)
        case .contextual:
            // A key with context registrations: the entry that applies now, or the parent's.
            // (Off the hot path: only keys registered with `in:` get here.)
            guard let selected = Container.selectedArgumentRecord(in: found.takeUnretainedValue()) else {
                lock.unlock()
                return .missing
            }
            guard let arguments = selected else {
                lock.unlock()
                throw Container.argumentsNotTaken(T.self, name: key.name, passing: repeat (each A).self)
            }
            record = arguments
        default:
            lock.unlock()
            throw Container.argumentsNotTaken(T.self, name: key.name, passing: repeat (each A).self)
        }
        lock.unlock()
        guard record.accepts(repeat (each A).self) else {
            throw Container.argumentMismatch(record, type: T.self, name: key.name, passing: repeat (each A).self)
        }
        return .found(record, lock)
    }

    /// For a key with context registrations, the registration that applies now: `nil` when none
    /// does here (the parent's applies), `.some(nil)` when it takes no arguments.
    @usableFromInline
    static func selectedArgumentRecord(in record: RegistrationRecord) -> ArgumentRecord?? {
        guard let selected = record.selected else { return nil }
        return .some(selected as? ArgumentRecord)
    }

    /// Resolves `key` with `arguments` without reporting. `requester` is the child container the
    /// resolution was asked of when a parent serves it (its bound scope instances apply).
    @inlinable
    package func resolveWithArguments<T, each A: Sendable>(
        key: RegistryKey, as _: T.Type, requester: Container?, _ arguments: repeat each A
    ) throws(DIError) -> T {
        switch try argumentRecord(key: key, as: T.self, passing: repeat (each A).self) {
        case .found(let record, let lock):
            guard !record.isAsyncFactory else { throw DIError.asyncResolutionRequired(T.self, name: key.name) }
            // No cast: the record was made for `T` (its key says so) and takes exactly these
            // arguments (checked above). (`unsafeDowncast` checks nothing in an optimized build.)
            let factory = unsafeDowncast(record.call, to: ArgumentFactory<T, repeat each A>.self)
            if record.lifetimeTag == .transient {
                return try runFactory({ try factory.call(repeat each arguments) }, key: key, type: T.self)
            }
            return try resolveShared(record, lock: lock, key: key, requester: requester, factory, repeat each arguments)
        case .diverted(let sandbox):
            return try sandbox.resolveWithArguments(key: key, as: T.self, requester: nil, repeat each arguments)
        case .missing:
            guard let parent else { throw DIError.dependencyNotFound(T.self, name: key.name) }
            return try parent.resolveWithArguments(
                key: key, as: T.self, requester: requester ?? self, repeat each arguments)
        }
    }

    /// A shared lifetime's resolution: the per-argument record (made on first use), resolved
    /// through the one shared-instance protocol. Out of line: keying by value needs the arguments
    /// as `AnyHashable` (a cast and an allocation each), which a transient resolution never pays.
    @usableFromInline
    func resolveShared<T, each A: Sendable>(
        _ record: ArgumentRecord, lock: WordLock, key: RegistryKey, requester: Container?,
        _ factory: ArgumentFactory<T, repeat each A>, _ arguments: repeat each A
    ) throws(DIError) -> T {
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
    package func resolveAsyncWithArguments<T, each A: Sendable>(
        key: RegistryKey, as _: T.Type, requester: Container?, _ arguments: repeat each A,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        let record: ArgumentRecord
        let lock: WordLock
        switch try argumentRecord(key: key, as: T.self, passing: repeat (each A).self) {
        case .found(let found, let foundLock):
            (record, lock) = (found, foundLock)
        case .diverted(let sandbox):
            return try await sandbox.resolveAsyncWithArguments(
                key: key, as: T.self, requester: nil, repeat each arguments)
        case .missing:
            guard let parent else { throw DIError.dependencyNotFound(T.self, name: key.name) }
            return try await parent.resolveAsyncWithArguments(
                key: key, as: T.self, requester: requester ?? self, repeat each arguments)
        }
        // A synchronous registration: the synchronous path, on the caller's actor.
        guard record.isAsyncFactory else {
            noteAsyncEdge(to: key, type: T.self)
            let factory = unsafeDowncast(record.call, to: ArgumentFactory<T, repeat each A>.self)
            if record.lifetimeTag == .transient {
                return try runFactory({ try factory.call(repeat each arguments) }, key: key, type: T.self)
            }
            return try resolveShared(record, lock: lock, key: key, requester: requester, factory, repeat each arguments)
        }
        let factory = unsafeDowncast(record.call, to: AsyncArgumentFactory<T, repeat each A>.self)
        let make = {
            AsyncRecord(
                lifetime: record.lifetime, name: key.name, site: record.site, declaredDependencies: [], type: T.self,
                asyncFactory: ErasedAsyncFactory { try await factory.call(repeat each arguments) })
        }
        // A transient's record is made per resolution: it only carries the arguments to the factory.
        let instance =
            record.lifetimeTag == .transient
            ? make()
            : record.instanceRecord(
                for: try argumentValues(record, key: key, type: T.self, repeat each arguments), lock: lock, make: make)
        // Made by `make` above: an `AsyncRecord`.
        let async = unsafeDowncast(instance, to: AsyncRecord.self)
        return try await resolveAsyncFactory(
            async, key: key, lock: lock, requester: requester, cellSlot: UInt(bitPattern: ObjectIdentifier(async)))
    }

    /// The failure of a resolution passing arguments to a registration made without them.
    @usableFromInline @inline(never)
    static func argumentsNotTaken<each A>(_ type: Any.Type, name: String?, passing _: repeat (each A).Type) -> DIError {
        .argumentMismatch(type, name: name, expected: [], passed: typesOf(repeat (each A).self))
    }

    /// The failure of a resolution whose arguments do not fit `record`.
    @usableFromInline @inline(never)
    static func argumentMismatch<each A>(
        _ record: ArgumentRecord, type: Any.Type, name: String?, passing _: repeat (each A).Type
    ) -> DIError {
        .argumentMismatch(
            type, name: name, expected: record.expectedArguments, passed: typesOf(repeat (each A).self))
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
