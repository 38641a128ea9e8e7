import Atomics

/// One registration as the registry stores it. Immutable once published, except for a shared
/// instance, which the owning slot's lock guards. (Its resolution count lives in the slot.)
///
/// Records are kept small because an app makes thousands: fields are ordered so small ones share
/// a word, the scope is implied by the subclass for the built-in lifetimes, and the instance of a
/// singleton or weak registration lives in the record itself rather than in a separate cell.
@usableFromInline
class RegistrationRecord: @unchecked Sendable {
    /// 0 transient, 1 singleton, 2 weak, 3 custom scope: what the resolution path switches on.
    @usableFromInline let scopeTag: UInt8
    private let siteLine: Int32
    /// Registration order, so listings and validation are stable.
    let sequence: Int
    @usableFromInline let name: String?
    private let siteFileID: String
    /// Types the registration declared it depends on (modules do); validation checks them.
    let declaredDependencies: [Any.Type]

    init(scopeTag: UInt8, name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int) {
        self.scopeTag = scopeTag
        self.siteLine = Int32(clamping: site.line)
        self.sequence = sequence
        self.name = name
        self.siteFileID = site.fileID
        self.declaredDependencies = declaredDependencies
    }

    /// Where the registration was made.
    var site: SourceLocation { SourceLocation(fileID: siteFileID, line: Int(siteLine)) }

    /// The registration's lifetime.
    var scope: Scope {
        switch scopeTag {
        case 1: return .singleton
        case 2: return .weak
        default: return .transient
        }
    }

    /// The registered type (the subclass knows it).
    var type: Any.Type { preconditionFailure("RegistrationRecord is abstract") }

    var displayName: String { ResolutionFrame.displayName(type, name) }

    /// Resolves this registration without knowing its static type (for `resolve(_: Any.Type)`).
    func resolveErased(in container: Container, key: RegistryKey, slot: TypeSlot) throws(DIError) -> Any {
        preconditionFailure("RegistrationRecord is abstract")
    }

    /// Drops cached instances (singleton, weak) without removing the registration.
    func releaseCachedInstance() {}

    /// A copy of this registration with no cached instance, for sandboxed validation.
    func freshCopy(sequence: Int) -> RegistrationRecord { self }
}

/// What a shared instance (singleton, weak, or one per scope instance) is kept in, and who is
/// building it. Guarded by the lock of whatever owns it (a registry slot or a scope instance).
@usableFromInline
protocol InstanceStorage<Value>: AnyObject {
    associatedtype Value
    /// The instance, if built and (for weak storage) still alive.
    var cached: Value? { get }
    /// The thread building the instance, if any.
    var builder: ObjectIdentifier? { get set }
    func store(_ value: Value)
    func clear()
}

/// Holds the instance of a scoped registration in one scope instance.
@usableFromInline
final class InstanceCell<T>: InstanceStorage {
    @exclusivity(unchecked) @usableFromInline var value: T?
    @exclusivity(unchecked) @usableFromInline var builder: ObjectIdentifier?

    @usableFromInline
    init(value: T? = nil) { self.value = value }

    @inlinable
    var cached: T? { value }

    @inlinable
    func store(_ newValue: T) { value = newValue }

    @usableFromInline
    func clear() { value = nil }
}

/// A registration of `T` and the factory that builds it. Transient registrations are exactly this
/// class; the shared lifetimes are subclasses that also hold the instance.
@usableFromInline
class TypedRecord<T>: RegistrationRecord, @unchecked Sendable {
    @usableFromInline let factory: @Sendable () throws -> T

    init(scopeTag: UInt8, name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int,
         factory: @escaping @Sendable () throws -> T) {
        self.factory = factory
        super.init(scopeTag: scopeTag, name: name, site: site,
                   declaredDependencies: declaredDependencies, sequence: sequence)
    }

    override var type: Any.Type { T.self }

    override func resolveErased(in container: Container, key: RegistryKey, slot: TypeSlot) throws(DIError) -> Any {
        try container.resolve(record: self, key: key, lock: slot.lock, type: T.self) as Any
    }

    override func freshCopy(sequence: Int) -> RegistrationRecord {
        makeRecord(scope: scope, name: name, site: site, declaredDependencies: declaredDependencies,
                   sequence: sequence, factory: factory)
    }
}

/// The record for a registration of `scope`: a `TypedRecord<T>` for transients, the matching
/// subclass otherwise.
///
/// A free function returning the non-generic base, so unspecialized callers (registration code
/// is generic in the library) look up exactly one class's generic metadata per registration.
func makeRecord<T>(scope: Scope, name: String?, site: SourceLocation, declaredDependencies: [Any.Type],
                   sequence: Int, factory: @escaping @Sendable () throws -> T) -> RegistrationRecord {
    switch scope.kind {
    case .transient:
        return TypedRecord(scopeTag: 0, name: name, site: site, declaredDependencies: declaredDependencies,
                           sequence: sequence, factory: factory)
    case .singleton:
        return SingletonRecord(name: name, site: site, declaredDependencies: declaredDependencies,
                               sequence: sequence, factory: factory)
    case .weak:
        return WeakRecord(name: name, site: site, declaredDependencies: declaredDependencies,
                          sequence: sequence, factory: factory)
    case .custom:
        return ScopedRecord(scope: scope, name: name, site: site, declaredDependencies: declaredDependencies,
                            sequence: sequence, factory: factory)
    }
}

/// A singleton registration: the instance is kept in the record, guarded by the slot lock.
@usableFromInline
final class SingletonRecord<T>: TypedRecord<T>, InstanceStorage, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var value: T?
    @exclusivity(unchecked) @usableFromInline var builder: ObjectIdentifier?

    init(name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int,
         factory: @escaping @Sendable () throws -> T) {
        super.init(scopeTag: 1, name: name, site: site, declaredDependencies: declaredDependencies,
                   sequence: sequence, factory: factory)
    }

    /// A singleton whose instance already exists (`register(_:instance:)`).
    init(name: String?, site: SourceLocation, sequence: Int, instance: T) {
        let box = UncheckedBox(instance)
        value = instance
        super.init(scopeTag: 1, name: name, site: site, declaredDependencies: [], sequence: sequence,
                   factory: { box.value })
    }

    @inlinable
    var cached: T? { value }

    @inlinable
    func store(_ newValue: T) { value = newValue }

    @usableFromInline
    func clear() { value = nil }

    override func releaseCachedInstance() { clear() }
}

/// A weak registration: the record holds the instance weakly, guarded by the slot lock.
@usableFromInline
final class WeakRecord<T>: TypedRecord<T>, InstanceStorage, @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline weak var object: AnyObject?
    @exclusivity(unchecked) @usableFromInline var builder: ObjectIdentifier?

    init(name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int,
         factory: @escaping @Sendable () throws -> T) {
        super.init(scopeTag: 2, name: name, site: site, declaredDependencies: declaredDependencies,
                   sequence: sequence, factory: factory)
    }

    @inlinable
    var cached: T? {
        // Weak storage holds class instances; a value type boxed here is released at once, which
        // makes a weak registration of a value type behave like a transient one.
        object.map { $0 as? T } ?? nil
    }

    @inlinable
    func store(_ newValue: T) { object = newValue as AnyObject }

    @usableFromInline
    func clear() { object = nil }

    override func releaseCachedInstance() { clear() }
}

/// A registration in a custom scope: instances live in scope instances, not in the record.
@usableFromInline
final class ScopedRecord<T>: TypedRecord<T>, @unchecked Sendable {
    private let customScope: Scope
    /// Unique for the process's lifetime. Scope instances key their cells by it: a record's
    /// address can be reused once a replaced record is freed, its id never is. (Only scoped
    /// records need one, so the other lifetimes do not pay its bytes.)
    @usableFromInline let uniqueID: UInt64 = scopedRecordIDs.wrappingIncrementThenLoad(ordering: .relaxed)

    init(scope: Scope, name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int,
         factory: @escaping @Sendable () throws -> T) {
        customScope = scope
        super.init(scopeTag: 3, name: name, site: site, declaredDependencies: declaredDependencies,
                   sequence: sequence, factory: factory)
    }

    override var scope: Scope { customScope }
}

/// The source of ``ScopedRecord/uniqueID``; never destroyed (it lives as long as the process).
let scopedRecordIDs = UnsafeAtomic<UInt64>.create(0)
