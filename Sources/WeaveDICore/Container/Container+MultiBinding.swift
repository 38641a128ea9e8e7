// Multi-binding: several registrations contribute implementations of one type and a consumer gets
// them all (`register(into: Plugin.self) { … }`, `resolveAll(Plugin.self)`). Contributions are
// ordinary registrations in the ordinary registry: all of one type live in one slot, keyed by a
// marker type of their own (`Contributions<P>`), each under its own name, so each keeps its own
// lifetime, handle, validation and graph node, and `resolve(P.self)` never sees them.

import Atomics

/// The marker whose metatype keys the contributions to `P` (never instantiated).
enum Contributions<P> {}

/// Numbers unnamed contributions, for their names; never destroyed (it lives as long as the process).
private let contributionNumbers = UnsafeAtomic<Int>.create(0)

extension Container {
    // MARK: Registration

    /// Adds `factory` to the implementations of `type` that ``resolveAll(_:)`` returns, alongside
    /// the contributions made before it (here and in parent containers). Nothing is built until
    /// `resolveAll` is called.
    ///
    /// - Parameters:
    ///   - type: the type every contribution provides (often a protocol).
    ///   - name: names the contribution; contributing again under the same name replaces it (the
    ///     replacement takes its place at the end of the order). Unnamed contributions never
    ///     replace one another.
    ///   - scope: the contribution's own lifetime (``Scope/transient`` by default).
    ///   - factory: builds this contribution's instance.
    /// - Returns: a handle whose ``RegistrationHandle/unregister()`` removes this contribution only.
    @discardableResult
    public func register<P>(
        into type: P.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> P
    ) -> RegistrationHandle {
        store(
            key: contributionKey(P.self, name: name), scope: scope, dependencies: [],
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    /// Adds an async `factory` to the implementations of `type`; ``resolveAllAsync(_:isolation:)``
    /// builds it (``resolveAll(_:)`` reports it as needing `resolveAllAsync` and skips it).
    @discardableResult
    public func registerAsync<P>(
        into type: P.Type,
        name: String? = nil,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> P
    ) -> RegistrationHandle {
        storeAsync(
            key: contributionKey(P.self, name: name), scope: scope, dependencies: [],
            site: RegistrationSite(fileID: file, line: line), factory: factory)
    }

    func contributionKey<P>(_: P.Type, name: String?) -> RegistryKey {
        let name = name ?? "contribution \(contributionNumbers.wrappingIncrementThenLoad(ordering: .relaxed))"
        return RegistryKey(Contributions<P>.self, name: name)
    }

    // MARK: Resolution

    /// Every contribution to `type` (``register(into:name:scope:file:line:factory:)``), built or
    /// fetched per its lifetime: the root container's first, then each child's down to this one,
    /// each container's in registration order. Empty when there is none.
    ///
    /// A contribution that fails (its factory throws, a cycle, an async factory) is left out and
    /// reported to `UnifiedDI.onResolutionError`; ``resolveAllOrThrow(_:)`` throws instead.
    public func resolveAll<P>(_ type: P.Type) -> [P] {
        var all: [P] = []
        for contribution in contributions(of: P.self) {
            do { all.append(try contribution.resolve(as: P.self, asker: self)) } catch { report(error) }
        }
        return all
    }

    /// Every contribution to `type`, as ``resolveAll(_:)`` orders them, or the ``DIError`` of the
    /// first that fails.
    public func resolveAllOrThrow<P>(_ type: P.Type) throws -> [P] {
        var all: [P] = []
        for contribution in contributions(of: P.self) {
            do { all.append(try contribution.resolve(as: P.self, asker: self)) } catch {
                throw report(error, thrown: true)
            }
        }
        return all
    }

    /// Every contribution to `type` with `await` (async factories too), as ``resolveAll(_:)``
    /// orders them, or the error of the first that fails.
    public func resolveAllAsync<P>(_ type: P.Type, isolation: isolated (any Actor)? = #isolation) async throws -> [P] {
        var all: [P] = []
        for contribution in contributions(of: P.self) {
            let requester = contribution.owner === self ? nil : self
            do {
                let value: P = try await contribution.owner.resolveAsyncCore(
                    key: contribution.key, requester: requester)
                all.append(value)
            } catch let error as DIError {
                // Removed since it was listed: it is no longer a contribution.
                if case .dependencyNotFound = error { continue }
                throw reportAsync(error)
            } catch let reported as ReportedAsyncFailure {
                throw propagateReported(reported.error)
            }
        }
        return all
    }

    /// The contributions to `P` through this container's chain, in order (a validation diverts
    /// them to its sandboxes).
    private func contributions<P>(of _: P.Type) -> [Contribution] {
        let start = (try? resolutionTarget()) ?? self
        var chain: [Container] = []
        var container: Container? = start
        while let current = container {
            chain.append(current)
            container = current.parent
        }
        let id = RegistryKey(Contributions<P>.self).id
        var found: [Contribution] = []
        for owner in chain.reversed() {
            guard let slot = owner.registry.slot(for: id) else { continue }
            // A name with context contributions is ordered by its first registration (adding a
            // context variant stores the name again, with a later sequence).
            let records = slot.lock.withLock { slot.allRecordsWithSequence }.map { entry in
                (
                    record: entry.record,
                    sequence: entry.record.contextEntries(sequence: entry.sequence).map(\.sequence).min()
                        ?? entry.sequence
                )
            }.sorted { $0.sequence < $1.sequence }
            // A contribution made for a context counts while its context (or its plain
            // registration under the same name) applies.
            for (record, _) in records where record.selected != nil {
                found.append(
                    Contribution(
                        owner: owner, record: record, lock: slot.lock, key: RegistryKey(rawID: id, name: record.name)))
            }
        }
        return found
    }
}

/// One contribution found by `resolveAll`: its record, held while it resolves.
private struct Contribution {
    let owner: Container
    let record: RegistrationRecord
    let lock: WordLock
    let key: RegistryKey

    func resolve<P>(as _: P.Type, asker: Container) throws(DIError) -> P {
        try owner.resolve(record: record, key: key, lock: lock, type: P.self, requester: owner === asker ? nil : asker)
    }
}
