/// An immutable value on the heap: an `@Injected` entry (an override or a cached default) kept
/// under its key's identity, or a shared instance too large for an ``InstanceBuffer``.
@usableFromInline
final class ValueBox<Value> {
    @usableFromInline let value: Value

    @usableFromInline init(_ value: Value) { self.value = value }
}
