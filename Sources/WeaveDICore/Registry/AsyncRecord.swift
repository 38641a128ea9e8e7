/// The registration of an async factory (``Container/registerAsync(_:scope:file:line:factory:)-(_,_,_,_,()->T)``),
/// in any lifetime. Its tag is ``ScopeTag/asyncFactory`` whatever the lifetime, so the synchronous
/// resolution path never builds it nor waits for it: that path fails at once with
/// ``DIError/asyncResolutionRequired(_:name:)``. `resolveAsync` switches on ``lifetime``.
///
/// A singleton's instance lives in ``singletonCell`` and a weak one in ``weakCell``, both guarded
/// by the slot lock; a custom scope's in cells of scope instances, keyed by ``uniqueID``, like a
/// ``ScopedRecord``'s.
@usableFromInline
final class AsyncRecord: RegistrationRecord, ScopedRegistration, @unchecked Sendable {
    /// The lifetime the registration asked for.
    let lifetime: Scope
    /// Unique for the process's lifetime (keys the record's scope cells).
    @usableFromInline let uniqueID: UInt64 = scopedRecordIDs.wrappingIncrementThenLoad(ordering: .relaxed)
    /// Builds an instance of ``RegistrationRecord/type``.
    let asyncFactory: ErasedAsyncFactory
    /// The singleton's storage (a singleton registration only).
    @usableFromInline let singletonCell: InstanceCell?
    /// The weak instance's storage (a weak registration only).
    let weakCell: WeakCell?
    /// The possible cycle (`BuildCoordinator.cycleSignature`) that made the last build of this
    /// registration fail (its deadline passed); cleared by a build that succeeds. The same cycle
    /// forming again, through any of its members, is then reported at once. Guarded by the build
    /// coordinator's mutex.
    var failedOnPossibleCycle: [String]?

    init(
        lifetime: Scope, name: String?, site: RegistrationSite, declaredDependencies: [Any.Type], type: Any.Type,
        asyncFactory: ErasedAsyncFactory
    ) {
        self.lifetime = lifetime
        self.asyncFactory = asyncFactory
        // The synchronous factory is never called (the tag stops the synchronous path first); it
        // fails the same way should anything reach it.
        let refusal = ErasedFactory { () throws -> Never in throw DIError.asyncResolutionRequired(type, name: name) }
        singletonCell = lifetime == .singleton ? InstanceCell(recordID: 0, type: type) : nil
        weakCell = lifetime == .weak ? WeakCell() : nil
        super.init(
            scopeTag: .asyncFactory, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: refusal)
    }

    override var scope: Scope { lifetime }

    override func freshCopy() -> RegistrationRecord {
        AsyncRecord(
            lifetime: lifetime, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, asyncFactory: asyncFactory
        ).markedAutowired(isAutowired)
    }

    /// The built singleton as an `AsyncDisposable`, if it conforms and was not disposed yet;
    /// call with the slot lock held.
    func disposableSingleton() -> (any AsyncDisposable)? {
        guard let cell = singletonCell, !cell.isDisposed else { return nil }
        return cell.disposable()
    }
}

/// Holds a weak registration's instance weakly (an async weak registration's storage).
final class WeakCell: InstanceStorage {
    @exclusivity(unchecked) weak var object: AnyObject?
    @exclusivity(unchecked) var ticket: BuildTicket?

    func cached<T>(as _: T.Type) -> T? {
        object.map { $0 as? T } ?? nil
    }

    func store<T>(_ value: T) { object = value as AnyObject }
}

/// An async factory with its result type erased, as ``ErasedFactory`` erases a synchronous one
/// (and for the same reasons: records are not generic; the representation of the boxed closure is
/// fixed by the box's declaration, whatever `T` is).
struct ErasedAsyncFactory: @unchecked Sendable {
    let box: AsyncFactoryBox<ErasedFactory.Erased>

    init<T>(_ factory: @escaping @Sendable () async throws -> T) {
        box = unsafeBitCast(AsyncFactoryBox(call: factory), to: AsyncFactoryBox<ErasedFactory.Erased>.self)
    }

    /// The factory, for the `T` it was made with (the caller guarantees it).
    @inline(__always)
    func typed<T>(as _: T.Type) -> @Sendable () async throws -> T {
        unsafeBitCast(box, to: AsyncFactoryBox<T>.self).call
    }
}

/// An async factory closure held in a struct, which fixes its representation.
struct AsyncFactoryBox<T> {
    let call: @Sendable () async throws -> T
}
