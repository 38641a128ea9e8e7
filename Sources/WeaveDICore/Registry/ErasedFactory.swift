/// A registration's factory with its result type erased, so that records (and registering) need
/// no generic metadata: looking up a generic class's metadata for each registered type cost more
/// than the rest of a registration.
///
/// It is the factory wrapped in a `FactoryBox<T>`, reinterpreted as a `FactoryBox<Erased>` and
/// read back as a `FactoryBox<T>` by whoever knows `T`. That is sound because a struct's stored
/// closure keeps the representation of its declaration (`() throws -> T` with `T` opaque: the
/// result is returned indirectly) whatever `T` is and however the code touching it is
/// specialized, and every function value has the same two words (code, reference-counted
/// context). A closure itself must never be reinterpreted as another function type: generic code
/// would re-abstract it on the way.
@usableFromInline
struct ErasedFactory: @unchecked Sendable {
    @usableFromInline let box: FactoryBox<Erased>

    /// Erases `factory`.
    init<T>(_ factory: @escaping @Sendable () throws -> T) {
        box = unsafeBitCast(FactoryBox(call: factory), to: FactoryBox<Erased>.self)
    }

    /// The factory, for the `T` it was made with (the caller guarantees it).
    @inlinable @inline(__always)
    func typed<T>(as _: T.Type) -> @Sendable () throws -> T {
        unsafeBitCast(box, to: FactoryBox<T>.self).call
    }

    /// The placeholder result type of an erased factory's box; it is never called as such.
    @usableFromInline
    enum Erased {}
}

/// A factory closure held in a struct, which fixes its representation (see ``ErasedFactory``).
@usableFromInline
struct FactoryBox<T> {
    @usableFromInline let call: @Sendable () throws -> T

    @usableFromInline
    init(call: @escaping @Sendable () throws -> T) { self.call = call }
}
