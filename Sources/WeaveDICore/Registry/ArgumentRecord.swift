/// A registration whose factory takes runtime arguments (``Container/register(_:scope:file:line:factory:)-(_,_,_,_,(A,B)->T)``).
///
/// It lives in the slot of its type and name like any registration, tagged
/// ``ScopeTag/arguments`` so a resolution without arguments fails with
/// ``DIError/argumentMismatch(_:name:expected:passed:)`` instead of calling a factory of the wrong
/// shape. Resolving it with arguments checks their types against ``expectedArguments`` (a dynamic cast
/// of ``call``), then, for a shared lifetime, finds or makes the per-argument record in
/// ``instances``: a plain record of that lifetime whose factory captured the arguments. That
/// record is then resolved through the one shared-instance protocol, so per-argument singletons,
/// weak and scoped instances are built once, waited for and cycle-checked as any other.
@usableFromInline
final class ArgumentRecord: RegistrationRecord, @unchecked Sendable {
    /// The lifetime the registration asked for (applied per argument value).
    @usableFromInline let lifetime: Scope
    /// `lifetime`'s kind, read by the inlined resolution path (one byte, no string compare).
    @usableFromInline let lifetimeTag: ScopeTag
    /// What the factory takes, in order.
    @usableFromInline let expectedArguments: [Any.Type]
    /// An ``ArgumentFactory`` or ``AsyncArgumentFactory`` typed by the registration's result and
    /// argument types; a resolution whose argument types ``accepts(_:)`` downcasts it unchecked.
    @usableFromInline let call: AnyObject
    /// Whether only `resolveAsync` can build it.
    @usableFromInline let isAsyncFactory: Bool
    /// One record per argument value already resolved (shared lifetimes only), in buckets by the
    /// arguments' hash and told apart by equality. Guarded by the slot lock; `version` counts its
    /// changes.
    @exclusivity(unchecked) private var buckets: [Int: [(values: ArgumentValues, record: RegistrationRecord)]] = [:]
    @exclusivity(unchecked) private var version = 0
    @exclusivity(unchecked) private var count = 0

    init(
        lifetime: Scope, name: String?, site: RegistrationSite, type: Any.Type, argumentTypes: [Any.Type],
        call: AnyObject, isAsyncFactory: Bool
    ) {
        self.lifetime = lifetime
        self.lifetimeTag = lifetime.tag
        self.expectedArguments = argumentTypes
        self.call = call
        self.isAsyncFactory = isAsyncFactory
        // Only reached by a resolution without arguments, which the tag stops first.
        let refusal = ErasedFactory { () throws -> Never in
            throw DIError.argumentMismatch(type, name: name, expected: argumentTypes, passed: [])
        }
        super.init(
            scopeTag: .arguments, name: name, site: site, declaredDependencies: [], type: type, factory: refusal)
    }

    override var scope: Scope { lifetime }

    /// Whether the factory takes exactly `types`, in order: one pointer comparison per argument
    /// (in a caller specialized for its argument types, each `type` is a constant).
    @inlinable
    func accepts<each A>(_ types: repeat (each A).Type) -> Bool {
        var index = 0
        for type in repeat each types {
            guard index < expectedArguments.count, ObjectIdentifier(type) == ObjectIdentifier(expectedArguments[index])
            else { return false }
            index += 1
        }
        return index == expectedArguments.count
    }

    override func freshCopy() -> RegistrationRecord {
        ArgumentRecord(
            lifetime: lifetime, name: name, site: site, type: type, argumentTypes: expectedArguments, call: call,
            isAsyncFactory: isAsyncFactory)
    }

    /// The per-argument record for `values`, made by `make` on first use.
    ///
    /// The arguments' `hash(into:)` and `==` are the caller's code, so they run with no lock held:
    /// the bucket is copied under `lock` and searched outside it, and a new record goes in only if
    /// nothing changed meanwhile (else the search runs again). Weak records whose instance is gone
    /// are dropped as the table grows, so a weak registration resolved with ever new arguments
    /// does not keep a record per value forever.
    func instanceRecord(for values: ArgumentValues, lock: WordLock, make: () -> RegistrationRecord)
        -> RegistrationRecord
    {
        let hash = values.hashValue
        var made: RegistrationRecord?
        while true {
            lock.lock()
            let bucket = buckets[hash] ?? []
            let seen = version
            lock.unlock()
            for entry in bucket where entry.values == values { return entry.record }
            let candidate = made ?? make()
            made = candidate
            var dropped: [Int: [(values: ArgumentValues, record: RegistrationRecord)]] = [:]
            lock.lock()
            if version == seen {
                if lifetime == .weak, count >= 64, count.nonzeroBitCount == 1 {
                    dropped = buckets
                    buckets = buckets.compactMapValues { entries in
                        let kept = entries.filter { !$0.record.isReleasedWeak }
                        return kept.isEmpty ? nil : kept
                    }
                    count = buckets.values.reduce(0) { $0 + $1.count }
                }
                buckets[hash, default: []].append((values, candidate))
                count += 1
                version &+= 1
                lock.unlock()
                // Dropped records (and the argument values they captured) are released here,
                // outside the lock.
                withExtendedLifetime(dropped) {}
                return candidate
            }
            lock.unlock()
        }
    }

    /// Every per-argument record; call with the slot lock held.
    var instanceRecords: [RegistrationRecord] { buckets.values.flatMap { $0.map(\.record) } }
}

extension RegistrationRecord {
    /// A weak record (synchronous or async) whose instance is released and that builds nothing.
    var isReleasedWeak: Bool {
        if let weak = self as? WeakRecord { return weak.object == nil && weak.ticket == nil }
        if let async = self as? AsyncRecord, let cell = async.weakCell {
            return cell.object == nil && cell.ticket == nil
        }
        return false
    }

    /// The argument types a registration takes (empty for a registration without arguments).
    package var argumentTypes: [Any.Type] { (self as? ArgumentRecord)?.expectedArguments ?? [] }
}

/// A factory taking `Arguments`, typed: a resolution downcasts the record's
/// ``ArgumentRecord/call`` to the instantiation for the types it passes only after
/// ``ArgumentRecord/accepts(_:)`` said they are the registration's, so a mismatch is an error,
/// never a wrong call.
@usableFromInline
final class ArgumentFactory<T, each Argument>: Sendable {
    @usableFromInline let call: @Sendable (repeat each Argument) throws -> T
    init(_ call: @escaping @Sendable (repeat each Argument) throws -> T) { self.call = call }
}

/// The async counterpart of ``ArgumentFactory``.
@usableFromInline
final class AsyncArgumentFactory<T, each Argument>: Sendable {
    let call: @Sendable (repeat each Argument) async throws -> T
    init(_ call: @escaping @Sendable (repeat each Argument) async throws -> T) { self.call = call }
}

/// The arguments of one resolution, as the key of a shared instance: equal when every argument
/// is equal (`==`, through `AnyHashable`), so two values whose hashes collide still get their own
/// instances.
struct ArgumentValues: Hashable, @unchecked Sendable {
    // Made only from `Sendable` arguments (the resolve calls require it).
    let values: [AnyHashable]

    /// The key for `arguments`, or the type of the first one that is not `Hashable`.
    static func make<each A: Sendable>(_ arguments: repeat each A) -> Result<ArgumentValues, NotHashable> {
        var values: [AnyHashable] = []
        for argument in repeat each arguments {
            guard let hashable = argument as? AnyHashable else {
                return .failure(NotHashable(type: type(of: argument)))
            }
            values.append(hashable)
        }
        return .success(ArgumentValues(values: values))
    }

    struct NotHashable: Error { let type: Any.Type }
}

/// The static types of `arguments`, in order.
func typesOf<each A>(_: repeat (each A).Type) -> [Any.Type] {
    var types: [Any.Type] = []
    for type in repeat (each A).self { types.append(type) }
    return types
}
