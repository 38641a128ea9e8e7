// Decorators: `decorate(OrderService.self) { inner in LoggingOrderService(decorated: inner) }`
// wraps what every factory of that type (and name) in this container builds. A decorator runs in
// the resolution path right after the factory returns, inside the factory's frame (so what it
// resolves is a dependency of the type, and a decorator resolving its own type is a cycle), and
// before a shared instance is stored: a singleton, weak or scoped instance is decorated once.
//
// Speed (issue 26, goal: a decorated transient ≤ 1.1× an undecorated one plus the decorator's
// own cost): a transient factory run finds its decorators with one acquiring load of a plain
// pointer and a linear scan, and applies them in code specialized for `T` (`runFactory` →
// `applyDecorators`). The published tables are never freed before their container, so readers
// take no reference on them: a `ManagedAtomic` of a class reference (what this used first) costs
// a double-word compare-and-swap and a retain/release per load, which was most of the 2×.

import Atomics
import Foundation

/// One decorator of a container, as stored.
struct DecoratorEntry: Sendable {
    /// Unique for the process's lifetime: the handle removes the decorator by it.
    let id: UInt64
    let site: RegistrationSite
    /// A ``DecoratorBox`` of the decorated type.
    let box: AnyObject & Sendable
}

/// One key's decorators in one published table, in the order they apply.
///
/// Unchecked `Sendable`: `boxes` is written once, in `init`, and only read afterwards.
@usableFromInline
final class DecoratorList: @unchecked Sendable {
    let entries: [DecoratorEntry]
    /// The entries' ``DecoratorBox``es alone (each a `DecoratorBox<T>` of the key's type `T`),
    /// unretained (`entries` keeps them): the resolution path walks them without retaining an
    /// array buffer or a box.
    @usableFromInline let boxes: UnsafeMutableBufferPointer<Unmanaged<AnyObject>>

    init(_ entries: [DecoratorEntry]) {
        self.entries = entries
        boxes = .allocate(capacity: entries.count)
        _ = boxes.initialize(from: entries.map { Unmanaged.passUnretained($0.box as AnyObject) })
    }

    deinit { boxes.deallocate() }
}

/// A container's decorators by key, immutable once published (a change publishes a new one).
/// Few keys are decorated, so a factory run finds its own by a linear scan, without hashing.
@usableFromInline
final class DecoratorSnapshot: Sendable {
    let entries: [(key: RegistryKey, list: DecoratorList)]

    init(_ entries: [(key: RegistryKey, list: DecoratorList)]) { self.entries = entries }

    /// `key`'s decorators, unretained (the table keeps them). Walks the storage in place: a
    /// `for … in` over the array, returning the list retained, cost a retain and a release per
    /// decorated resolution.
    func list(of key: RegistryKey) -> Unmanaged<DecoratorList>? {
        entries.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index].key.id == key.id && buffer[index].key.name == key.name {
                return Unmanaged.passUnretained(buffer[index].list)
            }
            return nil
        }
    }

    /// This table with `change` applied to `key`'s decorators (`nil` when none is left at all).
    static func updating(
        _ table: DecoratorSnapshot?, _ key: RegistryKey, _ change: (inout [DecoratorEntry]) -> Void
    ) -> DecoratorSnapshot? {
        var entries = table?.entries ?? []
        if let index = entries.firstIndex(where: { $0.key == key }) {
            var decorators = entries[index].list.entries
            change(&decorators)
            if decorators.isEmpty {
                entries.remove(at: index)
            } else {
                entries[index].list = DecoratorList(decorators)
            }
        } else {
            var decorators: [DecoratorEntry] = []
            change(&decorators)
            if !decorators.isEmpty { entries.append((key, DecoratorList(decorators))) }
        }
        return entries.isEmpty ? nil : DecoratorSnapshot(entries)
    }
}

/// Where a container keeps its decorators: the current table behind a plain atomic pointer, and
/// every table it ever published, so a reader that loaded an older one can still use it without
/// having retained it. A table is a few words per decorated key and is replaced only by
/// `decorate` and `DecoratorHandle.remove()`, so keeping them costs little.
@usableFromInline
final class DecoratorStore: @unchecked Sendable {
    /// The current table (`nil` while the container has no decorator); kept alive by `published`.
    @usableFromInline let current: UnsafeAtomic<Unmanaged<DecoratorSnapshot>?> = .create(nil)
    /// Guards `published` and serializes changes.
    private let lock = NSLock()
    /// Every table published here (guarded by `lock`).
    private var published: [DecoratorSnapshot] = []

    init() {}

    deinit { current.destroy() }

    /// The decorators of `key`, unretained: valid as long as this store (its container) lives.
    func list(of key: RegistryKey) -> Unmanaged<DecoratorList>? {
        guard let table = current.load(ordering: .acquiring) else { return nil }
        return table._withUnsafeGuaranteedRef { $0.list(of: key) }
    }

    /// The current table, retained (for code off the resolution path).
    var snapshot: DecoratorSnapshot? {
        lock.withLock { current.load(ordering: .acquiring)?.takeUnretainedValue() }
    }

    /// Applies `change` to `key`'s decorators and publishes the result; returns whether `change`
    /// changed anything.
    func update(_ key: RegistryKey, _ change: (inout [DecoratorEntry]) -> Void) -> Bool {
        lock.withLock {
            var changed = false
            let next = DecoratorSnapshot.updating(current.load(ordering: .relaxed)?.takeUnretainedValue(), key) {
                decorators in
                let before = decorators.map(\.id)
                change(&decorators)
                changed = decorators.map(\.id) != before
            }
            if changed { publish(next) }
            return changed
        }
    }

    /// Makes `table` current (the caller holds `lock`).
    private func publish(_ table: DecoratorSnapshot?) {
        if let table { published.append(table) }
        current.store(table.map { Unmanaged.passUnretained($0) }, ordering: .releasing)
    }

    /// Makes `source`'s current table this store's too.
    func adopt(_ source: DecoratorStore) {
        let table = source.snapshot
        lock.withLock { publish(table) }
    }
}

/// A decorator, typed.
@usableFromInline
final class DecoratorBox<T>: Sendable {
    @usableFromInline let apply: @Sendable (T) throws -> T
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
        ObservationCenter.shared.noteDecoratorAdded()
        return DecoratorHandle(container: self, key: key, id: entry.id)
    }

    /// `value`, as built by a factory of `key` in this container, passed through this container's
    /// decorators of `key` in order. Called inside the factory's frame with no lock held. (The
    /// paths that build shared instances, time factories or run async factories use this
    /// unspecialized form; a transient's run uses ``applyDecorators(_:to:)``.)
    func decorated<T>(_ value: T, key: RegistryKey) throws -> T {
        guard let list = decorators.list(of: key) else { return value }
        return try applyDecorators(list, to: value)
    }

    /// The decorators of `key` in this container, unretained (valid while `self` lives), or
    /// `nil`. Out of line: only a process with a decorator somewhere calls it.
    @usableFromInline @inline(never)
    func decoratorList(of key: RegistryKey) -> Unmanaged<DecoratorList>? {
        decorators.list(of: key)
    }

    /// `value` passed through `list`'s decorators in order. Inlinable, so a caller specialized for
    /// `T` gets a copy specialized too: no generic metadata look-up, no value witness calls, no
    /// cast (the box of a key derived from `T` is a `DecoratorBox<T>`), no retain of the list.
    /// `value` is consumed: each decorator's input is released after the call, and nothing is
    /// retained for the walk.
    @inlinable
    func applyDecorators<T>(_ list: Unmanaged<DecoratorList>, to value: consuming T) throws -> T {
        var result = value
        for box in list._withUnsafeGuaranteedRef({ $0.boxes }) {
            let input = consume result
            result = try box._withUnsafeGuaranteedRef { try unsafeDowncast($0, to: DecoratorBox<T>.self).apply(input) }
        }
        return result
    }

    /// Publishes this container's decorators with `change` applied to `key`'s. Returns whether
    /// `change` changed anything.
    @discardableResult
    func updateDecorators(of key: RegistryKey, _ change: (inout [DecoratorEntry]) -> Void) -> Bool {
        decorators.update(key, change)
    }

    /// Gives a validation sandbox standing for `source` the decorators of `source`.
    package func copyDecorators(from source: Container) {
        decorators.adopt(source.decorators)
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
    ///
    /// The container keeps each decorator table it published until the container itself is
    /// released (a reader may still be walking an older one), so adding and removing decorators
    /// in a loop on a long-lived container grows its memory: add them once, at setup.
    @discardableResult
    public func remove() -> Bool {
        var removed = false
        for key in keys where container.updateDecorators(of: key, { $0.removeAll { $0.id == id } }) { removed = true }
        return removed
    }
}
