/// Identifies one registration: the registered type (or a `Factory` key) and an optional name.
///
/// `id` is the address of the type's metadata, or an odd number for a `Factory` key; the two can
/// never collide because metadata is pointer-aligned.
@usableFromInline
package struct RegistryKey: Hashable, Sendable {
    @usableFromInline package let id: UInt
    @usableFromInline package let name: String?

    // The metadata address itself, not `ObjectIdentifier.hashValue`: that is a seeded hash, which
    // costs a SipHash round on every resolution and could collide with the odd `Factory` ids.
    @inlinable @inline(__always)
    package init<T>(_ type: T.Type, name: String? = nil) {
        self.id = UInt(bitPattern: ObjectIdentifier(type))
        self.name = name
    }

    @inlinable @inline(__always)
    package init(anyType: Any.Type, name: String? = nil) {
        self.id = UInt(bitPattern: ObjectIdentifier(anyType))
        self.name = name
    }

    @inlinable @inline(__always)
    package init(rawID: UInt, name: String?) {
        self.id = rawID
        self.name = name
    }
}
