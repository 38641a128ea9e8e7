// Concurrency model (Reliability/ConcurrencyModel article, "Async factories"): `resolveAsync`
// follows the synchronous protocol step for step, with a task in place of a thread. The slot lock
// is taken only to read the registration (and a built async singleton). A shared instance is built
// by the one task that finds its storage empty and puts a task's `BuildTicket` there; the others
// suspend on that ticket through `BuildCoordinator.waitAsync` (the same wait-for graph, whose
// nodes are then tasks: `AsyncNode`). The resolution path travels with the task
// (`AsyncResolutionPath`), so a cycle within one task is found on it however often the task
// changes threads, and a cycle across tasks by the graph. A synchronous registration resolved
// with `resolveAsync` is resolved by the synchronous path (it never suspends; it may block while
// another thread runs its synchronous factory, as a synchronous resolution would).

import Atomics

/// The async resolution path, below the public `resolveAsync` calls: the same protocol as the
/// synchronous path, with a task in place of a thread (paths travel as task-local frames).
extension Container {
    /// The fast path of ``resolveAsync(_:)``: a built async singleton registered (unnamed) in this
    /// container, read as a built synchronous singleton is — one table probe, the slot lock
    /// around a few loads, no suspension, nothing allocated. `nil` for anything else (not built,
    /// another lifetime, a synchronous registration, a parent's, auto-registration pending):
    /// the full path decides. Inlined into the caller, so it runs specialized for `T`.
    @inlinable @inline(__always)
    func builtAsyncSingleton<T>(id: UInt, as _: T.Type) -> T? {
        guard autoRegistrationWord.load(ordering: .acquiring) == AutoRegistrationState.done.rawValue,
            let slot = currentTable.load(ordering: .acquiring)._withUnsafeGuaranteedRef({ $0.find(id) })
        else { return nil }
        let lock = slot.lock
        lock.lock()
        guard let record = slot.storage.pointee.unnamed, record.scopeTag == .asyncFactory,
            let cell = unsafeDowncast(record, to: AsyncRecord.self).singletonCell, cell.hasInstance
        else {
            lock.unlock()
            return nil
        }
        slot.storage.pointee.unnamedResolutions &+= 1
        let value = cell.cached(as: T.self)
        lock.unlock()
        noteAsyncEdge(to: RegistryKey(rawID: id, name: nil), type: T.self)
        return value
    }

    /// Resolves the registration under `key` (made for `T`) without reporting failures.
    func resolveAsyncCore<T>(key: RegistryKey, requester: Container?) async throws -> T {
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue,
            let sandbox = try prepareResolution()
        {
            return try await sandbox.resolveAsyncCore(key: key, requester: nil)
        }
        guard let slot = registry.slot(for: key.id) else {
            return try await resolveAsyncMissing(key: key, requester: requester)
        }
        let lock = slot.lock
        lock.lock()
        guard let found = slot.findCountingResolution(named: key.name) else {
            lock.unlock()
            return try await resolveAsyncMissing(key: key, requester: requester)
        }
        let record = found.takeUnretainedValue()
        guard record.isAsync else {
            lock.unlock()
            noteAsyncEdge(to: key, type: T.self)
            return try resolve(record: record, key: key, lock: lock, type: T.self, requester: requester)
        }
        // The tag says the record is an `AsyncRecord`.
        let async = unsafeDowncast(record, to: AsyncRecord.self)
        if let cell = async.singletonCell, let value = cell.cached(as: T.self) {
            lock.unlock()
            noteAsyncEdge(to: key, type: T.self)
            return value
        }
        lock.unlock()
        switch async.lifetime.tag {
        case .singleton:
            let cell = async.singletonCell!
            return try await resolveSharedAsync(async, key: key) { (cell, lock) }
        case .weak:
            let cell = async.weakCell!
            return try await resolveSharedAsync(async, key: key) { (cell, lock) }
        case .custom:
            return try await resolveScopedAsync(async, key: key, slotLock: lock, requester: requester ?? self)
        case .transient, .asyncFactory:
            let top = AsyncResolutionPath.top
            let task = AsyncResolutionPath.currentTask()
            try checkPath(top, taskID: AsyncResolutionPath.id(of: task), key: key, type: T.self)
            return try await runAsyncFactory(async, key: key, task: task, top: top, ticket: nil)
        }
    }

    /// A key not registered here: the parent's registration, or a miss.
    func resolveAsyncMissing<T>(key: RegistryKey, requester: Container?) async throws -> T {
        if let parent { return try await parent.resolveAsyncCore(key: key, requester: requester ?? self) }
        throw DIError.dependencyNotFound(T.self, name: key.name)
    }

    /// The shared instance in the storage `cell()` names, built once: the synchronous
    /// `resolveShared` protocol with a task's ticket, whose waiters suspend.
    func resolveSharedAsync<T, Cell: InstanceStorage>(
        _ record: AsyncRecord, key: RegistryKey, cell: () throws(DIError) -> (Cell, WordLock)
    ) async throws -> T {
        let top = AsyncResolutionPath.top
        let task = AsyncResolutionPath.currentTask()
        let me = AsyncResolutionPath.id(of: task)
        let node = AsyncResolutionPath.node(me)
        try checkPath(top, taskID: me, key: key, type: T.self)
        var (storage, lock) = try cell()
        var ticket: BuildTicket
        while true {
            lock.lock()
            if let value = storage.cached(as: T.self) {
                lock.unlock()
                noteAsyncEdge(to: key, type: T.self)
                return value
            }
            if storage.isAbandoned {
                lock.unlock()
                (storage, lock) = try cell()
                continue
            }
            guard let building = storage.ticket else {
                // Empty: this task builds.
                ticket = BuildTicket(job: .registration(record), taskNode: node)
                storage.ticket = ticket
                lock.unlock()
                break
            }
            lock.unlock()
            noteAsyncEdge(to: key, type: T.self)
            try await BuildCoordinator.shared.waitAsync(
                for: building, waiter: node,
                ownsForWaiter: { top?.isInsideBuild(ownedBy: $0, taskID: me) ?? false },
                waiterPath: { (top?.pathNames ?? []) + [ResolutionFrame.displayName(T.self, key.name)] })
        }
        let value: T
        do {
            value = try await runAsyncFactory(record, key: key, task: task, top: top, ticket: ticket)
        } catch {
            BuildCoordinator.shared.finish(ticket) { lock.withLock { storage.ticket = nil } }
            throw error
        }
        BuildCoordinator.shared.finish(ticket) {
            lock.withLock {
                if !storage.isAbandoned { storage.store(value) }
                storage.ticket = nil
            }
        }
        return value
    }

    /// A custom-scope async registration, in the scope instance that applies (as
    /// ``resolveScoped(_:key:slotLock:requester:)`` chooses it).
    func resolveScopedAsync<T>(
        _ record: AsyncRecord, key: RegistryKey, slotLock: WordLock,
        requester: Container
    ) async throws -> T {
        let slot = UInt(bitPattern: slotLock.word)
        var instance = try scopeInstance(for: record, requester: requester, previous: nil)
        defer { withExtendedLifetime(instance) {} }
        return try await resolveSharedAsync(record, key: key) { () throws(DIError) -> (InstanceCell, WordLock) in
            var released: InstanceCell?
            while true {
                instance.lock.lock()
                if !instance.ended {
                    let cell = instance.cell(for: record, slot: slot, replaced: &released)
                    instance.lock.unlock()
                    return (cell, instance.lock)
                }
                instance.lock.unlock()
                instance = try scopeInstance(for: record, requester: requester, previous: instance)
            }
        }
    }

    /// Refuses a resolution that would close a cycle within the current task, or nest deeper
    /// than ``maximumResolutionDepth``. Only the task's own frames count for cycles: frames it
    /// inherited belong to its parent, which a shared build's ticket covers.
    @inline(__always)
    func checkPath(_ top: AsyncFrame?, taskID: UInt, key: RegistryKey, type: Any.Type) throws(DIError) {
        guard let top else { return }
        try checkNestedPath(top, taskID: taskID, key: key, type: type)
    }

    /// ``checkPath(_:taskID:key:type:)`` inside a factory (out of line).
    func checkNestedPath(_ top: AsyncFrame, taskID: UInt, key: RegistryKey, type: Any.Type) throws(DIError) {
        let limit = flags.depthLimit.load(ordering: .relaxed)
        if top.depth >= limit {
            throw DIError.resolutionTooDeep(path: Array(top.pathNames.prefix(8)), limit: limit)
        }
        var current: AsyncFrame? = top
        while let frame = current, frame.taskID == taskID {
            if frame.frame.key == key && frame.frame.container == identity {
                if recordsGraph { graph.record(from: top.frame, to: key, type: type) }
                var names: [String] = []
                var walk: AsyncFrame? = top
                while let link = walk {
                    names.append(link.frame.displayName)
                    if link === frame { break }
                    walk = link.parent
                }
                throw DIError.circularDependency(path: names.reversed() + [ResolutionFrame.displayName(type, key.name)])
            }
            current = frame.parent
        }
    }

    /// Runs an async factory with its frame on the task's path; times it when resolutions are
    /// timed, and reports the time once the frame is off the path.
    @inline(__always)
    func runAsyncFactory<T>(
        _ record: AsyncRecord, key: RegistryKey, task: AnyObject?, top: AsyncFrame?,
        ticket: BuildTicket?
    ) async throws -> T {
        let resolutionFrame = ResolutionFrame(key: key, type: T.self, container: identity)
        if recordsGraph, let top { graph.record(from: top.frame, to: key, type: T.self) }
        let frame = AsyncFrame(frame: resolutionFrame, parent: top, task: task, ticket: ticket)
        let factory = record.asyncFactory.typed(as: T.self)
        let timed = timingFlag.load(ordering: .relaxed)
        let start = timed ? monotonicSeconds() : 0
        asyncFactoriesRunning.wrappingIncrement(ordering: .relaxed)
        defer { asyncFactoriesRunning.wrappingDecrement(ordering: .relaxed) }
        do {
            let value = try await AsyncResolutionPath.$top.withValue(frame) { try await factory() }
            if timed { await reportAsyncDuration(monotonicSeconds() - start, key: key, type: T.self) }
            return value
        } catch let error as DIError {
            // A nested resolution's failure keeps its own detail. If a nested `resolveAsync` in
            // this task reported it, the entry points it propagates through do not report it
            // again (they unwrap the mark).
            if let last = frame.lastReported, last.isSameFailure(as: error) { throw ReportedAsyncFailure(error: error) }
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw DIError.factoryFailed(T.self, name: key.name, underlying: error)
        }
    }

    /// Counts an async factory's duration and tells the slow-resolution hooks and log, with no
    /// async frame on the path: a hook that resolves is not nested in the factory.
    func reportAsyncDuration(_ seconds: Double, key: RegistryKey, type: Any.Type) async {
        statisticsStore.recordDuration(key, type: type, seconds: seconds)
        guard failureSink == nil else { return }
        AsyncResolutionPath.$top.withValue(nil) {
            ObservationCenter.shared.reportResolutionTime(type, name: key.name, seconds: seconds)
        }
    }

    /// Records "the async factory this task runs resolved `key`" in the dependency graph.
    @inlinable @inline(__always)
    func noteAsyncEdge(to key: RegistryKey, type: Any.Type) {
        guard asyncFactoriesRunning.load(ordering: .relaxed) != 0, recordsGraph else { return }
        recordAsyncEdge(to: key, type: type)
    }

    /// The graph update for ``noteAsyncEdge(to:type:)`` (out of line: only while async factories run).
    @usableFromInline @inline(never)
    func recordAsyncEdge(to key: RegistryKey, type: Any.Type) {
        guard ThreadStack.current.depth == 0, let top = AsyncResolutionPath.top else { return }
        graph.record(from: top.frame, to: key, type: type)
    }

    /// ``report(_:thrown:)`` for an async resolution: a failure a nested `resolveAsync` in this
    /// task already reported, which a factory rethrew, is not reported again.
    func reportAsync(_ error: DIError) -> DIError {
        let top = AsyncResolutionPath.top
        let own = top.flatMap { $0.taskID == AsyncResolutionPath.currentTaskID() ? $0 : nil }
        if let own, let last = own.lastReported, last.isSameFailure(as: error) { return error }
        let reported = report(error, thrown: true, asyncDependent: top?.frame)
        own?.lastReported = reported
        return reported
    }

    /// A failure already reported in this task, leaving a public entry point: the factory
    /// around the entry point (if any) learns it was reported, so it is not reported again.
    func propagateReported(_ error: DIError) -> DIError {
        if let top = AsyncResolutionPath.top, top.taskID == AsyncResolutionPath.currentTaskID() {
            top.lastReported = error
        }
        return error
    }
}

/// A failure an async factory rethrew after a nested `resolveAsync` of the same task reported it:
/// the public entry points it propagates through unwrap it without reporting it again. Never
/// seen outside WeaveDI.
package struct ReportedAsyncFailure: Error {
    package let error: DIError
}
