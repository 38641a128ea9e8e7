// Decorators: `decorate(OrderService.self) { inner in LoggingOrderService(decorated: inner) }`
// wraps what every factory of that type (and name) in this container builds. A decorator runs in
// the resolution path right after the factory returns, inside the factory's frame (so what it
// resolves is a dependency of the type, and a decorator resolving its own type is a cycle), and
// before a shared instance is stored: a singleton, weak or scoped instance is decorated once.

import Atomics

/// One decorator of a container, as stored.
struct DecoratorEntry: Sendable {
    /// Unique for the process's lifetime: the handle removes the decorator by it.
    let id: UInt64
    let site: RegistrationSite
    /// A ``DecoratorBox`` of the decorated type.
    let box: AnyObject & Sendable
}

/// A container's decorators by key, immutable once published (a change publishes a new one).
/// Few keys are decorated, so a factory run finds its own by a linear scan, without hashing.
final class DecoratorSnapshot: AtomicReference, Sendable {
    let entries: [(key: RegistryKey, decorators: [DecoratorEntry])]

    init(_ entries: [(key: RegistryKey, decorators: [DecoratorEntry])]) { self.entries = entries }

    func decorators(of key: RegistryKey) -> [DecoratorEntry]? {
        for entry in entries where entry.key.id == key.id && entry.key.name == key.name { return entry.decorators }
        return nil
    }

    /// This table with `change` applied to `key`'s decorators (`nil` when none is left at all).
    static func updating(
        _ table: DecoratorSnapshot?, _ key: RegistryKey, _ change: (inout [DecoratorEntry]) -> Void
    ) -> DecoratorSnapshot? {
        var entries = table?.entries ?? []
        if let index = entries.firstIndex(where: { $0.key == key }) {
            change(&entries[index].decorators)
            if entries[index].decorators.isEmpty { entries.remove(at: index) }
        } else {
            var decorators: [DecoratorEntry] = []
            change(&decorators)
            if !decorators.isEmpty { entries.append((key, decorators)) }
        }
        return entries.isEmpty ? nil : DecoratorSnapshot(entries)
    }
}

/// A decorator, typed.
final class DecoratorBox<T>: Sendable {
    let apply: @Sendable (T) throws -> T
    init(_ apply: @escaping @Sendable (T) throws -> T) { self.apply = apply }
}

/// Numbers decorators; never destroyed (it lives as long as the process).
let decoratorIDs = UnsafeAtomic<UInt64>.create(0)

extension Container {
    /// Wraps every instance this container's factories build for `type` (under `name`) in
    /// `decorator`, as in `decorate(OrderService.self) { inner in LoggingOrderService(decorated: inner) }`.
    ///
    /// Guarantees:
    /// - Every resolution of `type` registered in this container returns the decorated instance,
    ///   whatever the lifetime, synchronous or async factory, with or without arguments. A shared
    ///   instance (singleton, weak, custom scope) is decorated once, when it is built, before any
    ///   other resolution sees it.
    /// - Several decorators compose in the order they were added: the first added wraps the
    ///   factory's instance, the next wraps that, and so on. A module adds one the same way.
    /// - A decorator applies to the type, not to one registration: a registration made later —
    ///   a test's replacement (a mock registered over the app's registration) included — is
    ///   decorated too. To test an undecorated mock, use a container without the decorator.
    /// - It runs inside the factory's resolution: what it resolves is a dependency of `type` (in
    ///   the graph and in `validate()`), and resolving `type` itself from it is a cycle.
    ///
    /// Not decorated: an instance registered with `register(_:instance:)` (it is returned as
    /// given), an instance built before the decorator was added, a child container's own
    /// registrations (decorate them on the child), and contributions to
    /// ``resolveAll(_:)`` (decorate the contribution's factory).
    ///
    /// If `decorator` throws, the resolution fails with ``DIError/factoryFailed(_:name:underlying:)``
    /// and no shared instance is stored.
    @discardableResult
    public func decorate<T>(
        _ type: T.Type,
        name: String? = nil,
        file: String = #fileID,
        line: Int = #line,
        _ decorator: @escaping @Sendable (T) throws -> T
    ) -> DecoratorHandle {
        let key = RegistryKey(type, name: name)
        let entry = DecoratorEntry(
            id: decoratorIDs.wrappingIncrementThenLoad(ordering: .relaxed),
            site: RegistrationSite(fileID: file, line: line), box: DecoratorBox(decorator))
        updateDecorators(of: key) { $0.append(entry) }
        // From now on every factory run takes the path that looks decorators up.
        runtimeFlags.decoratorsAdded.store(true, ordering: .relaxed)
        runtimeFlags.factoryHooks.store(true, ordering: .relaxed)
        return DecoratorHandle(container: self, key: key, id: entry.id)
    }

    /// `value`, as built by a factory of `key` in this container, passed through this container's
    /// decorators of `key` in order. Called inside the factory's frame with no lock held.
    func decorated<T>(_ value: T, key: RegistryKey) throws -> T {
        guard let table = decoratorSnapshot.load(ordering: .acquiring), let entries = table.decorators(of: key) else {
            return value
        }
        var result = value
        for entry in entries {
            // Keyed by `T`'s metadata: the box is a `DecoratorBox<T>`.
            result = try unsafeDowncast(entry.box, to: DecoratorBox<T>.self).apply(result)
        }
        return result
    }

    /// Publishes this container's decorators with `change` applied to `key`'s (a compare-and-swap
    /// loop: concurrent changes are all kept). Returns whether `change` changed anything.
    @discardableResult
    func updateDecorators(of key: RegistryKey, _ change: (inout [DecoratorEntry]) -> Void) -> Bool {
        while true {
            let current = decoratorSnapshot.load(ordering: .acquiring)
            var changed = false
            let next = DecoratorSnapshot.updating(current, key) { decorators in
                let before = decorators.map(\.id)
                change(&decorators)
                changed = decorators.map(\.id) != before
            }
            if !changed { return false }
            if decoratorSnapshot.compareExchange(expected: current, desired: next, ordering: .acquiringAndReleasing)
                .exchanged
            {
                return true
            }
        }
    }

    /// Gives a validation sandbox standing for `source` the decorators of `source`.
    package func copyDecorators(from source: Container) {
        decoratorSnapshot.store(source.decoratorSnapshot.load(ordering: .acquiring), ordering: .releasing)
    }
}

/// Returned by ``Container/decorate(_:name:file:line:_:)``: removes the decorator.
public struct DecoratorHandle: Sendable {
    private let container: Container
    /// The keys the decorator was added to (two for a `ParameterFactory` key's).
    private let keys: [RegistryKey]
    private let id: UInt64

    init(container: Container, key: RegistryKey, id: UInt64) {
        self.init(container: container, keys: [key], id: id)
    }

    init(container: Container, keys: [RegistryKey], id: UInt64) {
        self.container = container
        self.keys = keys
        self.id = id
    }

    /// Removes the decorator: instances built afterwards are not passed through it (instances
    /// already built keep it). Returns whether it was still there.
    @discardableResult
    public func remove() -> Bool {
        var removed = false
        for key in keys where container.updateDecorators(of: key, { $0.removeAll { $0.id == id } }) { removed = true }
        return removed
    }
}
