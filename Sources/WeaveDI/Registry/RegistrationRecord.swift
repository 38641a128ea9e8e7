import Atomics

/// One registration as the registry stores it. Immutable once published, except for the
/// instance cell, which the owning slot's lock guards.
@usableFromInline
class RegistrationRecord: @unchecked Sendable {
    @usableFromInline let scopeTag: UInt8
    let scope: Scope
    let type: Any.Type
    let name: String?
    let site: SourceLocation
    /// Types the registration declared it depends on (modules do); validation checks them.
    let declaredDependencies: [Any.Type]
    /// Registration order, so listings and validation are stable.
    let sequence: Int
    /// Unique for the process's lifetime. Scope instances key their cells by it: a record's
    /// address can be reused once a replaced record is freed, its id never is.
    @usableFromInline let uniqueID: UInt64 = RegistrationRecord.nextID.wrappingIncrementThenLoad(ordering: .relaxed)

    private static let nextID = ManagedAtomic<UInt64>(0)
    /// Resolutions this registration served; counted under its slot's lock, where it costs
    /// nothing extra. `final` so inlined resolution code writes it directly.
    @usableFromInline final var resolutionCount = 0

    init(scope: Scope, type: Any.Type, name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int) {
        self.scopeTag = scope.tag
        self.scope = scope
        self.type = type
        self.name = name
        self.site = site
        self.declaredDependencies = declaredDependencies
        self.sequence = sequence
    }

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

/// Holds the shared instance of a singleton, weak or scoped registration, and who is building it.
/// Guarded by the lock of whatever owns it (a registry slot or a scope instance).
@usableFromInline
final class InstanceCell<T> {
    @usableFromInline var value: T?
    @usableFromInline weak var object: AnyObject?
    @usableFromInline var builder: ObjectIdentifier?
    @usableFromInline let isWeak: Bool

    @usableFromInline
    init(isWeak: Bool, value: T? = nil) {
        self.isWeak = isWeak
        self.value = value
    }

    @inlinable
    var cached: T? {
        if !isWeak { return value }
        // Weak cells hold class instances; a value type boxed here is released at once, which makes
        // a weak registration of a value type behave like a transient one.
        return object.map { $0 as? T } ?? nil
    }

    @inlinable
    func store(_ newValue: T) {
        if isWeak { object = newValue as AnyObject } else { value = newValue }
    }

    @usableFromInline
    func clear() {
        value = nil
        object = nil
    }
}

@usableFromInline
final class TypedRecord<T>: RegistrationRecord, @unchecked Sendable {
    @usableFromInline let factory: @Sendable () throws -> T
    /// The shared instance for singleton and weak registrations.
    @usableFromInline let cell: InstanceCell<T>

    init(scope: Scope, name: String?, site: SourceLocation, declaredDependencies: [Any.Type], sequence: Int,
         factory: @escaping @Sendable () throws -> T, preset: T? = nil) {
        self.factory = factory
        self.cell = InstanceCell(isWeak: scope.tag == 2, value: preset)
        super.init(scope: scope, type: T.self, name: name, site: site,
                   declaredDependencies: declaredDependencies, sequence: sequence)
    }

    override func resolveErased(in container: Container, key: RegistryKey, slot: TypeSlot) throws(DIError) -> Any {
        try container.resolve(record: self, key: key, slot: slot, type: T.self) as Any
    }

    override func releaseCachedInstance() { cell.clear() }

    override func freshCopy(sequence: Int) -> RegistrationRecord {
        TypedRecord(scope: scope, name: name, site: site, declaredDependencies: declaredDependencies,
                    sequence: sequence, factory: factory)
    }
}
