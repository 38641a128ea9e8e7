/// An immutable value on the heap: an `@Injected` entry (an override or a cached default) kept
/// under its key's identity, or a shared instance too large for an ``InstanceBuffer``.
@usableFromInline
package final class ValueBox<Value> {
    @usableFromInline package let value: Value

    @usableFromInline package init(_ value: Value) { self.value = value }
}
