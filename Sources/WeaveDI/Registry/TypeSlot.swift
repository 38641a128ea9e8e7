/// Everything registered for one type (or `Factory` key): the unnamed registration and any named
/// ones. A slot, once created, lives as long as its registry, so readers may hold it unretained.
@usableFromInline
final class TypeSlot: @unchecked Sendable {
    @usableFromInline
    struct Named {
        @usableFromInline let name: String
        @usableFromInline var record: RegistrationRecord
    }

    @usableFromInline let lock = SlotLock()
    @usableFromInline var unnamed: RegistrationRecord?
    @usableFromInline var named: [Named] = []
    let type: Any.Type
    /// The registry key id the slot is stored under (a type's metadata address or a `Factory` key).
    let id: UInt

    init(type: Any.Type, id: UInt) {
        self.type = type
        self.id = id
    }

    deinit { lock.deallocate() }

    /// The registration for `name`; call with the lock held.
    @inlinable @inline(__always)
    func record(named name: String?) -> RegistrationRecord? {
        guard let name else { return unnamed }
        // A type rarely has more than a few names; comparing small strings is cheaper than hashing.
        for entry in named where entry.name == name { return entry.record }
        return nil
    }

    /// Replaces the registration for `name`, returning the one it replaced; call with the lock held.
    func setRecord(_ record: RegistrationRecord?, named name: String?) -> RegistrationRecord? {
        guard let name else {
            defer { unnamed = record }
            return unnamed
        }
        if let index = named.firstIndex(where: { $0.name == name }) {
            let old = named[index].record
            if let record { named[index].record = record } else { named.remove(at: index) }
            return old
        }
        if let record { named.append(Named(name: name, record: record)) }
        return nil
    }

    /// Every registration in the slot; call with the lock held.
    var allRecords: [RegistrationRecord] {
        (unnamed.map { [$0] } ?? []) + named.map(\.record)
    }
}
