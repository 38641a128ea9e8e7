import Atomics

/// One registration as the registry stores it. Immutable once published, except for a shared
/// instance, which the owning slot's lock guards. (Its resolution count and registration order
/// live in the slot.)
///
/// Records are not generic: the registered type is a stored metatype and the factory an
/// ``ErasedFactory``, so making one looks up no generic metadata (for each registered type, that
/// look-up cost more than the rest of a registration). Code that resolves knows `T` and reads
/// the factory and a built instance back as `T`.
///
/// Records are kept small because an app makes thousands: fields are ordered so small ones share
/// a word, the scope is implied by the subclass for the built-in lifetimes, and the instance of a
/// singleton or weak registration lives in the record itself rather than in a separate cell.
@usableFromInline
package class RegistrationRecord: @unchecked Sendable {
    /// The lifetime's kind: what the resolution path switches on.
    @usableFromInline let scopeTag: ScopeTag
    /// Whether a singleton's instance is built (guarded by the slot lock; unused by other
    /// lifetimes). Kept here, beside the tag, because resolving a singleton reads both.
    @exclusivity(unchecked) @usableFromInline final var hasInstance = false
    /// Whether WeaveDI resolves the factory's inputs itself (`register(_:initializer:)`): the
    /// ``declaredDependencies`` are then exactly what the factory resolves. Set before the record
    /// is published, never after.
    package private(set) final var isAutowired = false
    private let siteLine: Int32
    @usableFromInline package let name: String?
    private let siteFileID: String
    /// Types the registration declared it depends on (modules do; an autowired registration's are
    /// its initializer's parameter types, each resolved unnamed); validation checks them.
    package let declaredDependencies: [Any.Type]
    /// The registered type: what the factory returns.
    package let type: Any.Type
    /// Builds an instance of `type`.
    @usableFromInline let factory: ErasedFactory

    init(
        scopeTag: ScopeTag, name: String?, site: RegistrationSite, declaredDependencies: [Any.Type],
        type: Any.Type, factory: ErasedFactory
    ) {
        self.scopeTag = scopeTag
        self.siteLine = Int32(clamping: site.line)
        self.name = name
        self.siteFileID = site.fileID
        self.declaredDependencies = declaredDependencies
        self.type = type
        self.factory = factory
    }

    /// Where the registration was made.
    package var site: RegistrationSite { storedSite }

    private var storedSite: RegistrationSite { RegistrationSite(fileID: siteFileID, line: Int(siteLine)) }

    /// The registration's lifetime.
    package var scope: Scope {
        switch scopeTag {
        case .singleton: return .singleton
        case .weak: return .weak
        case .transient, .custom, .asyncFactory, .arguments, .contextual: return .transient // subclasses override this
        }
    }

    package var displayName: String { ResolutionFrame.displayName(type, name) }

    /// Resolves this registration without knowing its static type (for `resolve(_: Any.Type)`).
    func resolveErased(in container: Container, key: RegistryKey, slot: TypeSlot, requester: Container? = nil)
        throws(DIError) -> Any
    {
        func resolve<T>(_: T.Type) -> Result<Any, DIError> {
            Result { () throws(DIError) -> Any in
                try container.resolve(record: self, key: key, lock: slot.lock, type: T.self, requester: requester)
            }
        }
        return try _openExistential(type, do: resolve).get()
    }

    /// The registration a resolution uses now: this one, or for a key with context registrations
    /// (``ContextualRecord``) the one of the active context, else the plain one (`nil`: none).
    package var selected: RegistrationRecord? { self }

    /// The context of ``selected`` (`nil`: the plain registration).
    package var context: RegistrationContext? { nil }

    /// The registrations of this key that do not apply now, by context (`nil`: the plain one).
    package var inactiveContexts: [RegistrationContext?] { [] }

    /// This registration as entries of its key: itself, made by write `sequence`, or a
    /// ``ContextualRecord``'s entries.
    func contextEntries(sequence: Int) -> [ContextualRecord.Entry] {
        [ContextualRecord.Entry(context: nil, record: self, sequence: sequence)]
    }

    /// Whether only `resolveAsync` can build this registration (an async factory's).
    package final var isAsync: Bool { scopeTag == .asyncFactory }

    /// A copy of this registration with no cached instance, for sandboxed validation.
    func freshCopy() -> RegistrationRecord {
        makeRecord(
            scope: scope, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory
        ).markedAutowired(isAutowired)
    }

    /// Marks the record autowired when `autowired` (before it is published); returns it.
    @discardableResult
    final func markedAutowired(_ autowired: Bool = true) -> RegistrationRecord {
        if autowired { isAutowired = true }
        return self
    }
}

/// The record for a registration of `factory` in `scope`.
///
/// Generic only to erase the factory: it makes no generic type's metadata, so unspecialized
/// callers (registration code is generic in the library) pay no metadata look-up.
func makeRecord<T>(
    scope: Scope, name: String?, site: RegistrationSite, declaredDependencies: [Any.Type],
    factory: @escaping @Sendable () throws -> T
) -> RegistrationRecord {
    makeRecord(
        scope: scope, name: name, site: site, declaredDependencies: declaredDependencies,
        type: T.self, factory: ErasedFactory(factory))
}

/// The record for a registration of `scope`: a plain ``RegistrationRecord`` for transients, the
/// matching subclass otherwise. Inlined into the registration path: as a call, passing its
/// arguments cost a retain and a release each (measured: 3% of a registration).
@inline(__always)
func makeRecord(
    scope: Scope, name: String?, site: RegistrationSite, declaredDependencies: [Any.Type],
    type: Any.Type, factory: ErasedFactory
) -> RegistrationRecord {
    switch scope.kind {
    case .transient:
        return RegistrationRecord(
            scopeTag: .transient, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    case .singleton:
        return SingletonRecord(
            name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    case .weak:
        return WeakRecord(
            name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    case .custom, .graph:
        return ScopedRecord(
            scope: scope, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    }
}

/// The kind of a registration's lifetime, in one byte the resolution path switches on without
/// comparing strings.
@usableFromInline
package enum ScopeTag: UInt8, Sendable {
    case transient, singleton, weak, custom
    /// An async factory's registration (``AsyncRecord``), whatever its lifetime: only
    /// `resolveAsync` builds it.
    case asyncFactory
    /// A registration whose factory takes arguments (``ArgumentRecord``), whatever its lifetime:
    /// only a resolution passing arguments builds it.
    case arguments
    /// A key with context registrations (``ContextualRecord``): the resolution picks the entry
    /// that applies and resolves that.
    case contextual
}

/// A singleton registration: the instance is kept in the record, guarded by the slot lock.
@usableFromInline
final class SingletonRecord: RegistrationRecord, InstanceStorage, @unchecked Sendable {
    /// The instance, once ``RegistrationRecord/hasInstance``.
    @exclusivity(unchecked) @usableFromInline var instance = InstanceBuffer()
    @exclusivity(unchecked) @usableFromInline var ticket: BuildTicket?
    /// When the instance was stored (``InstanceCreationOrder``); guarded by the slot lock.
    @exclusivity(unchecked) var creationOrder: UInt64 = 0
    /// Whether ``Container/disposeSingletons(where:)`` disposed the instance; guarded by the slot lock.
    @exclusivity(unchecked) var isDisposed = false

    init(
        name: String?, site: RegistrationSite, declaredDependencies: [Any.Type], type: Any.Type,
        factory: ErasedFactory
    ) {
        super.init(
            scopeTag: .singleton, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    }

    /// A singleton whose instance already exists (`register(_:instance:)`).
    convenience init<T>(name: String?, site: RegistrationSite, instance: T) {
        let box = UncheckedBox(instance)
        self.init(
            name: name, site: site, declaredDependencies: [], type: T.self,
            factory: ErasedFactory { box.value })
        store(instance)
    }

    deinit {
        if hasInstance { withUnsafeMutablePointer(to: &instance) { $0.destroy(type: type) } }
    }

    @inlinable
    func cached<T>(as _: T.Type) -> T? {
        guard hasInstance else { return nil }
        return instanceValue(as: T.self)
    }

    /// The instance; call only when ``RegistrationRecord/hasInstance``.
    @inlinable @inline(__always)
    func instanceValue<T>(as _: T.Type) -> T {
        withUnsafeMutablePointer(to: &instance) { $0.value(as: T.self) }
    }

    @usableFromInline
    func store<T>(_ value: T) {
        assert(!hasInstance, "a singleton's instance is stored once")
        withUnsafeMutablePointer(to: &instance) { $0.store(value) }
        hasInstance = true
        creationOrder = InstanceCreationOrder.next()
    }

    /// The instance as an `AsyncDisposable`, if it is built, conforms and was not disposed yet.
    func disposable() -> (any AsyncDisposable)? {
        guard hasInstance, !isDisposed else { return nil }
        func read<T>(_: T.Type) -> (any AsyncDisposable)? { instanceValue(as: T.self) as? any AsyncDisposable }
        return _openExistential(type, do: read)
    }
}

/// A weak registration: the record holds the instance weakly, guarded by the slot lock.
@usableFromInline
final class WeakRecord: RegistrationRecord, InstanceStorage, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline weak var object: AnyObject?
    @exclusivity(unchecked) @usableFromInline var ticket: BuildTicket?

    init(
        name: String?, site: RegistrationSite, declaredDependencies: [Any.Type], type: Any.Type,
        factory: ErasedFactory
    ) {
        super.init(
            scopeTag: .weak, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    }

    @inlinable
    func cached<T>(as _: T.Type) -> T? {
        // Weak storage holds class instances; a value type boxed here is released at once, which
        // makes a weak registration of a value type behave like a transient one.
        object.map { $0 as? T } ?? nil
    }

    @usableFromInline
    func store<T>(_ value: T) { object = value as AnyObject }
}

/// A registration whose instances live in scope instances (a custom scope's), one cell per
/// scope instance, keyed by the registration's ``uniqueID``.
@usableFromInline
protocol ScopedRegistration: RegistrationRecord {
    /// Unique for the process's lifetime (see ``ScopedRecord/uniqueID``).
    var uniqueID: UInt64 { get }
}

/// A registration in a custom scope: instances live in scope instances, not in the record.
@usableFromInline
final class ScopedRecord: RegistrationRecord, ScopedRegistration, @unchecked Sendable {
    private let customScope: Scope
    /// Unique for the process's lifetime. Scope instances key their cells by it: a record's
    /// address can be reused once a replaced record is freed, its id never is. (Only scoped
    /// records need one, so the other lifetimes do not pay its bytes.)
    @usableFromInline let uniqueID: UInt64 = scopedRecordIDs.wrappingIncrementThenLoad(ordering: .relaxed)

    init(
        scope: Scope, name: String?, site: RegistrationSite, declaredDependencies: [Any.Type], type: Any.Type,
        factory: ErasedFactory
    ) {
        customScope = scope
        super.init(
            scopeTag: .custom, name: name, site: site, declaredDependencies: declaredDependencies,
            type: type, factory: factory)
    }

    override var scope: Scope { customScope }
}

/// The source of ``ScopedRecord/uniqueID``; never destroyed (it lives as long as the process).
let scopedRecordIDs = UnsafeAtomic<UInt64>.create(0)
