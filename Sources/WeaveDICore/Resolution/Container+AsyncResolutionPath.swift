// Concurrency model (ConcurrencyModel article, "Async factories" and "Tasks"; Spec/TaskWait.pml):
// `resolveAsync` drives the shared-instance protocol (`SharedInstanceProtocol.swift`) with a task
// in place of a thread. The slot lock is taken only to read the registration (and a built async
// singleton). A shared instance is built by the one task that finds its storage empty and puts a
// task's `BuildTicket` there; the others suspend on that ticket through
// `BuildCoordinator.waitAsync`, in the one wait-for graph. The resolution path travels with the
// task (`AsyncResolutionPath`): a cycle within a task's own factories is found on it at once; a
// cycle through factories a task inherited is a possible one (see `BuildCoordinator`). A
// synchronous registration is resolved by the synchronous path, on the caller's actor.

import Atomics

/// The async resolution path, below the public `resolveAsync` calls: the same protocol as the
/// synchronous path, with a task in place of a thread (paths travel as task-local frames).
extension Container {
    /// The fast path of ``resolveAsync(_:isolation:)``: a built async singleton registered (unnamed) in this
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

    /// Resolves the registration under `key` (made for `T`) without reporting failures. A
    /// synchronous registration's factory runs on `isolation` (the caller's actor), as `resolve`
    /// would run it there.
    func resolveAsyncCore<T>(
        key: RegistryKey, requester: Container?, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
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
        var record = found.takeUnretainedValue()
        // A key with context registrations: the entry that applies now (its custom-scope cells
        // are its own), or the parent's registration.
        var cellSlot: UInt?
        if record.scopeTag == .contextual {
            let wrapper = record
            guard let entry = unsafeDowncast(wrapper, to: ContextualRecord.self).selectedEntry else {
                lock.unlock()
                return try await resolveAsyncMissing(key: key, requester: requester)
            }
            record = entry.record
            cellSlot = ContextualRecord.cellSlot(of: record, context: entry.context)
            if !record.isAsync {
                lock.unlock()
                noteAsyncEdge(to: key, type: T.self)
                return try resolve(record: wrapper, key: key, lock: lock, type: T.self, requester: requester)
            }
        }
        guard record.isAsync else {
            lock.unlock()
            noteAsyncEdge(to: key, type: T.self)
            guard let requester else {
                return try resolve(record: record, key: key, lock: lock, type: T.self, requester: nil)
            }
            // Asked of a child: an autowired factory here resolves its parameters through it.
            let delegation = ThreadStack.current.delegate(to: requester)
            defer { delegation.end() }
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
        return try await resolveAsyncFactory(async, key: key, lock: lock, requester: requester, cellSlot: cellSlot)
    }

    /// An async registration's instance, built or awaited (off the caller's actor: the factory is
    /// async and runs where it is isolated).
    func resolveAsyncFactory<T>(
        _ record: AsyncRecord, key: RegistryKey, lock: WordLock, requester: Container?, cellSlot: UInt? = nil
    ) async throws -> T {
        switch record.lifetime.tag {
        case .singleton:
            let cell = record.singletonCell!
            return try await resolveSharedAsync(record, key: key, requester: requester) { (cell, lock) }
        case .weak:
            let cell = record.weakCell!
            return try await resolveSharedAsync(record, key: key, requester: requester) { (cell, lock) }
        case .custom:
            return try await resolveScopedAsync(
                record, key: key, slotLock: lock, requester: requester ?? self, cellSlot: cellSlot)
        case .transient, .asyncFactory, .arguments, .contextual:
            let taskID = AsyncResolutionPath.currentTaskID()
            let top = AsyncResolutionPath.openTop
            if let top { try await checkTransientPath(top, taskID: taskID, record: record, key: key, type: T.self) }
            let frame = AsyncFrame(
                frame: ResolutionFrame(key: key, type: T.self, container: identity), record: record,
                parent: AsyncResolutionPath.openTop, taskID: taskID)
            frame.requester = requester
            var elapsed: Double?
            let value: T = try await runAsyncFactory(record, key: key, frame: frame, elapsed: &elapsed)
            if let elapsed { await reportAsyncDuration(elapsed, key: key, type: T.self) }
            return value
        }
    }

    /// A key not registered here: the parent's registration, or a miss.
    func resolveAsyncMissing<T>(
        key: RegistryKey, requester: Container?, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        if let parent { return try await parent.resolveAsyncCore(key: key, requester: requester ?? self) }
        throw DIError.dependencyNotFound(T.self, name: key.name)
    }

    /// The shared instance in the storage `cell()` names, built once: the shared-instance protocol
    /// driven by a task, whose waits suspend.
    ///
    /// `adoptingGraph`: the graph (`Scope.graph`) this outermost resolution started; the frame
    /// its factory runs in holds it, so the factories it runs share it.
    func resolveSharedAsync<T, Cell: InstanceStorage>(
        _ record: AsyncRecord, key: RegistryKey, adoptingGraph: ScopeInstance? = nil, requester: Container? = nil,
        cell: () throws(DIError) -> (Cell, WordLock)
    ) async throws -> T {
        let taskID = AsyncResolutionPath.currentTaskID()
        let top = AsyncResolutionPath.openTop
        if let top { try checkOwnPath(top, taskID: taskID, key: key, type: T.self) }
        let node = AsyncResolutionPath.node(taskID)
        var (storage, lock) = try cell()
        var ticket: BuildTicket
        var frame: AsyncFrame?
        var built: T?
        while true {
            // The ticket names the frame this task will run the factory in, so tasks started inside
            // the factory are known to be inside the build.
            switch storage.nextStep(
                &built, lock: lock,
                openTicket: {
                    let building = AsyncFrame(
                        frame: ResolutionFrame(key: key, type: T.self, container: identity), record: record,
                        parent: top, taskID: taskID)
                    if let adoptingGraph { _ = building.sharedGraph(adopting: adoptingGraph) }
                    building.requester = requester
                    frame = building
                    return BuildTicket(job: .registration(record), taskNode: node, frame: building)
                })
            {
            case .built:
                noteAsyncEdge(to: key, type: T.self)
                return built!
            case .abandoned:
                (storage, lock) = try cell()
                continue
            case .wait(let building):
                noteAsyncEdge(to: key, type: T.self)
                let chain = top?.openChain ?? []
                try await BuildCoordinator.shared.waitAsync(for: building, waiter: node, path: chain, taskID: taskID)
                continue
            case .build(let mine):
                ticket = mine
            }
            break
        }
        let value: T
        var elapsed: Double?
        do {
            value = try await runAsyncFactory(record, key: key, frame: frame!, elapsed: &elapsed)
        } catch {
            storage.failBuild(ticket, lock: lock, failure: error)
            throw error
        }
        let kept = storage.finishBuild(ticket, lock: lock, storing: value)
        // Hooks run once the instance is stored: a hook that resolves the type gets it.
        if let elapsed { await reportAsyncDuration(elapsed, key: key, type: T.self) }
        if !kept, let cell = storage as? InstanceCell, let unkept = cell.unkeptDisposal(of: value) {
            // Its scope instance ended while it was built: dispose it, never hand it out.
            if let disposable = unkept.disposable { await ScopeInstance.dispose([disposable], reason: unkept.reason) }
            throw unkept.error
        }
        return value
    }

    /// A custom-scope async registration, in the scope instance that applies (as
    /// ``resolveScoped(_:key:slotLock:requester:cellSlot:)`` chooses it).
    func resolveScopedAsync<T>(
        _ record: AsyncRecord, key: RegistryKey, slotLock: WordLock,
        requester: Container, cellSlot: UInt? = nil
    ) async throws -> T {
        let slot = cellSlot ?? UInt(bitPattern: slotLock.word)
        if record.lifetime.isGraph, AsyncResolutionPath.openTop == nil, !ThreadStack.isResolving {
            return try await resolveOutermostGraphAsync(record, key: key, slot: slot)
        }
        var instance = try scopeInstance(for: record, requester: requester, previous: nil)
        defer { withExtendedLifetime(instance) {} }
        return try await resolveSharedAsync(record, key: key, requester: requester) {
            () throws(DIError) -> (InstanceCell, WordLock) in
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

    /// Refuses a resolution of `key` when one of the task's own factories is already building
    /// it (a proven cycle), or when the task's own factories are nested as deep as allowed.
    func checkOwnPath(_ top: AsyncFrame, taskID: UInt, key: RegistryKey, type: Any.Type) throws(DIError) {
        try checkDepth(top, taskID: taskID)
        var current: AsyncFrame? = top
        while let frame = current {
            if frame.isOwn(by: taskID), frame.frame.key == key, frame.frame.container == identity {
                let error = cycleError(closingAt: frame, top: top, key: key, type: type)
                // The builds on the cycle (this task's frames from `top` down to `frame`) hand it
                // to their waiters should they fail, as for a cycle a wait proves.
                var onCycle: [AsyncFrame] = []
                var link: AsyncFrame? = top
                while let next = link {
                    onCycle.append(next)
                    if next === frame { break }
                    link = next.openParent
                }
                BuildCoordinator.shared.markProvenCycle(error, on: onCycle)
                throw error
            }
            current = frame.openParent
        }
    }

    /// ``checkOwnPath(_:taskID:key:type:)`` for a transient, which has no storage to wait on: when
    /// only an inherited factory runs `key` (this task was started inside it), that factory may
    /// be awaiting this task (a structured child: a cycle) or not (a `Task {}`). The task waits for
    /// it to return, for at most ``possibleCycleTimeout``, then goes on; past that, it is a cycle.
    func checkTransientPath(
        _ top: AsyncFrame, taskID: UInt, record: AsyncRecord, key: RegistryKey, type: Any.Type
    ) async throws {
        try checkOwnPath(top, taskID: taskID, key: key, type: type)
        while let top = AsyncResolutionPath.openTop {
            var current: AsyncFrame? = top
            var running: AsyncFrame?
            while let frame = current {
                if frame.frame.key == key, frame.frame.container == identity {
                    running = frame
                    break
                }
                current = frame.openParent
            }
            guard let running,
                let ticket = BuildCoordinator.shared.ticketForClose(of: running, job: .registration(record))
            else { return }
            let chain = top.openChain
            try await BuildCoordinator.shared.waitAsync(
                for: ticket, waiter: AsyncResolutionPath.node(taskID), path: chain, taskID: taskID)
        }
    }

    /// Fails with ``DIError/resolutionTooDeep(path:depth:limit:)`` when the task's own open
    /// factories are nested as deep as allowed (`top` is the task's open path): as deep as
    /// ``maximumAsyncResolutionDepth``, or ``maximumResolutionDepth`` when that is lower.
    @inline(__always)
    func checkDepth(_ top: AsyncFrame, taskID: UInt) throws(DIError) {
        guard top.isOwn(by: taskID) else { return }
        let asyncLimit = flags.asyncDepthLimit.load(ordering: .relaxed)
        let limit = flags.depthLimit.load(ordering: .relaxed)
        guard top.depth >= min(asyncLimit, limit) else { return }
        throw DIError.resolutionTooDeep(
            path: Array(top.pathNames.prefix(8)), depth: top.depth,
            limit: limit < asyncLimit ? .maximumResolutionDepth(limit) : .maximumAsyncResolutionDepth(asyncLimit))
    }

    /// The cycle closed by resolving `key` again while `frame` (on the task's open path below
    /// `top`) runs it; records the closing edge in the graph.
    func cycleError(closingAt frame: AsyncFrame, top: AsyncFrame, key: RegistryKey, type: Any.Type) -> DIError {
        if recordsGraph { graph.record(from: top.frame, to: key, type: type) }
        var names: [String] = []
        var walk: AsyncFrame? = top
        while let link = walk {
            names.append(link.frame.displayName)
            if link === frame { break }
            walk = link.openParent
        }
        return DIError.circularDependency(path: names.reversed() + [ResolutionFrame.displayName(type, key.name)])
    }

    /// Runs an async factory with `frame` on the task's path, and closes the frame when the factory
    /// returns; when resolutions are timed, sets `elapsed` for the caller to report once the
    /// instance is stored (hooks see it).
    @inline(__always)
    func runAsyncFactory<T>(
        _ record: AsyncRecord, key: RegistryKey, frame: AsyncFrame, elapsed: inout Double?
    ) async throws -> T {
        if recordsGraph, let parent = frame.parent { graph.record(from: parent.frame, to: key, type: T.self) }
        let factory = record.asyncFactory.typed(as: T.self)
        let timed = timingFlag.load(ordering: .relaxed)
        let start = timed ? monotonicSeconds() : 0
        asyncFactoriesRunning.wrappingIncrement(ordering: .relaxed)
        defer { asyncFactoriesRunning.wrappingDecrement(ordering: .relaxed) }
        do {
            let value = try await AsyncResolutionPath.$top.withValue(frame) {
                defer { frame.close() }
                return try decorated(try await factory(), key: key)
            }
            if timed { elapsed = monotonicSeconds() - start }
            return value
        } catch let error as DIError {
            // A nested resolution's failure keeps its own detail. If a nested `resolveAsync` in
            // this task reported it, the entry points it propagates through do not report it
            // again (they unwrap the mark).
            if frame.reportedInside(error) { throw ReportedAsyncFailure(error: error) }
            throw error
        } catch let error as CancellationError where Task.isCancelled {
            // The resolving task was cancelled: its cancellation, not the factory's failure.
            throw error
        } catch let error as ReportedAsyncFailure {
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
        guard ThreadStack.current.depth == 0, let top = AsyncResolutionPath.openTop else { return }
        graph.record(from: top.frame, to: key, type: type)
    }

    /// ``report(_:thrown:)`` for an async resolution: a failure a nested `resolveAsync` in this
    /// task already reported, which a factory rethrew, is not reported again.
    func reportAsync(_ error: DIError) -> DIError {
        let top = AsyncResolutionPath.openTop
        let me = AsyncResolutionPath.currentTaskID()
        if let top, top.isOwn(by: me), top.reportedHere(error) { return error }
        let reported = report(error, thrown: true, asyncDependent: top?.frame)
        top?.noteReported(reported, by: me)
        return reported
    }

    /// A failure already reported in this task, leaving a public entry point: the factory
    /// around the entry point (if any) learns it was reported, so it is not reported again.
    func propagateReported(_ error: DIError) -> DIError {
        AsyncResolutionPath.openTop?.noteReported(error, by: AsyncResolutionPath.currentTaskID())
        return error
    }
}

/// A failure an async factory rethrew after a nested `resolveAsync` of the same task reported it:
/// the public entry points it propagates through unwrap it without reporting it again. Never
/// seen outside WeaveDI.
package struct ReportedAsyncFailure: Error {
    package let error: DIError
}
