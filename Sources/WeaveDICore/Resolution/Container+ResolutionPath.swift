// Concurrency model (Reliability/ConcurrencyModel article; Spec/BuildWait.pml): a resolution
// takes its type's slot lock only to read the registration (and a built singleton). A transient's
// factory runs with no lock held. A shared instance (singleton, weak, scoped) is built by the one
// thread that finds its storage empty and puts a `BuildTicket` there (`resolveShared`); the others
// wait for that ticket through `BuildCoordinator`, the process's one wait-for graph. Same-thread
// cycles are found on the thread's resolution stack; cross-thread ones by the graph. Timing hooks
// run after the factory's frame is popped and its instance stored (`reportDuration`).

import Atomics
import Foundation

/// The synchronous resolution path, below the public `resolve` calls: find the registration,
/// build or fetch its instance, and run factories with the resolution stack that detects cycles.
extension Container {
    /// Resolves without reporting: the public entry points report, so each failure is heard once.
    @inlinable
    package func resolveCore<T>(_ type: T.Type, name: String?) throws(DIError) -> T {
        try resolveCore(key: RegistryKey(type, name: name), type: type)
    }

    /// Resolves the registration stored under `key`, which must have been made for `T`
    /// (`Factory` keys use their own ids).
    ///
    /// This is the hot path: the dispatch below is inlined into every caller, and the look-up
    /// runs in a copy specialized for `T`. A built singleton costs one atomic load
    /// (auto-registration done?), one table probe, the slot lock around a few loads, one retain
    /// of the instance, and, unless optimization is on, one thread-local load to see whether a
    /// factory is running (for the dependency graph). Nothing is allocated.
    ///
    /// `type` itself is never read: each path that needs `T`'s metadata names `T.self` where it
    /// needs it, so a specialized copy does not materialize the metadata on entry (a call, for
    /// protocol and generic types) for a cached singleton that never uses it.
    ///
    /// Unnamed and named resolutions are separate functions, so the specialized copy a plain
    /// `resolve(T.self)` calls holds no code for names at all.
    @inlinable @inline(__always)
    package func resolveCore<T>(key: RegistryKey, type _: T.Type) throws(DIError) -> T {
        if key.name == nil { return try resolveUnnamed(id: key.id) }
        return try resolveNamed(key: key)
    }

    /// ``resolveCore(key:type:)`` as if asked through `requester`, a container below this one:
    /// the scope instances bound on `requester` and its parents apply first (a `Factory` key's
    /// scoped default lives in the root, and is asked for through whichever container the caller
    /// named).
    @usableFromInline
    package func resolveCore<T>(key: RegistryKey, type _: T.Type, requester: Container) throws(DIError) -> T {
        try resolveSlot(key: key, name: key.name, requester: requester)
    }

    /// ``resolveCore(key:type:)`` for an unnamed key. Takes the id alone: the key's (absent) name
    /// costs no arguments and no spills.
    @inlinable
    func resolveUnnamed<T>(id: UInt) throws(DIError) -> T {
        try resolveSlot(key: RegistryKey(rawID: id, name: nil), name: nil, requester: nil)
    }

    /// A resolution diverted here from another container (this is a validation sandbox). Out of
    /// line, so the resolution path inlined into every caller holds a single call for it.
    @usableFromInline @inline(never)
    func resolveDiverted<T>(key: RegistryKey) throws(DIError) -> T {
        if key.name == nil { return try resolveUnnamed(id: key.id) }
        return try resolveNamed(key: key)
    }

    /// ``resolveCore(key:type:)`` for a named key.
    @inlinable
    func resolveNamed<T>(key: RegistryKey) throws(DIError) -> T {
        try resolveSlot(key: key, name: key.name, requester: nil)
    }

    /// The body of both: `name` is a constant `nil` in the unnamed copy. `requester` is the child
    /// container the resolution was asked of, when a parent serves it (`nil`: this container):
    /// scope instances bound to it apply to scoped registrations found here.
    @inlinable @inline(__always)
    func resolveSlot<T>(key: RegistryKey, name: String?, requester: Container?) throws(DIError) -> T {
        // One load and comparison: auto-registration is done and no validation diverts this
        // container's resolutions (its sandbox then resolves, see `prepareResolution`).
        if autoRegistrationWord.load(ordering: .acquiring) != AutoRegistrationState.done.rawValue,
            let sandbox = try prepareResolution()
        {
            return try sandbox.resolveDiverted(key: key)
        }
        // A slot lives as long as the registry (which `self` keeps), and is a plain pointer.
        // (The registry's table, through the copy of its pointer kept in the container.)
        guard let slot = currentTable.load(ordering: .acquiring)._withUnsafeGuaranteedRef({ $0.find(key.id) }) else {
            return try resolveMissing(T.self, key: key, requester: requester)
        }
        let lock = slot.lock
        lock.lock()
        guard let found = slot.findCountingResolution(named: name) else {
            lock.unlock()
            return try resolveMissing(T.self, key: key, requester: requester)
        }
        // The record is used unretained while the lock keeps it in the slot. The key is derived
        // from `T`, so the record's type is `T` (and the record a `SingletonRecord` when its tag
        // says singleton): no dynamic cast. Each branch below leaves the lock with exactly what
        // it needs retained: a built singleton's instance, a transient's factory (the record may
        // be replaced while it runs), or the record whose shared instance must be built.
        let tag = found._withUnsafeGuaranteedRef { $0.scopeTag }
        if tag == .singleton, found._withUnsafeGuaranteedRef({ $0.hasInstance }) {
            let value = found._withUnsafeGuaranteedRef {
                unsafeDowncast($0, to: SingletonRecord.self).instanceValue(as: T.self)
            }
            lock.unlock()
            if recordsGraph {
                if ThreadStack.isResolving {
                    noteEdge(to: key, type: T.self, stack: ThreadStack.current)
                } else {
                    noteAsyncEdge(to: key, type: T.self)
                }
            }
            return value
        }
        if tag == .transient {
            let factory = found._withUnsafeGuaranteedRef { $0.factory.typed(as: T.self) }
            lock.unlock()
            return try runFactory(factory, key: key, type: T.self)
        }
        let record = found.takeUnretainedValue()
        lock.unlock()
        return try resolve(record: record, key: key, lock: lock, type: T.self, requester: requester)
    }

    /// Resolves `record` (retained by the caller) outside any lock; `lock` is its slot's lock.
    @inlinable @inline(__always)
    func resolve<T>(
        record: RegistrationRecord, key: RegistryKey, lock: WordLock, type: T.Type,
        requester: Container?
    ) throws(DIError) -> T {
        switch record.scopeTag {
        case .transient:
            return try runFactory(record.factory.typed(as: T.self), key: key, type: type)
        case .singleton:
            let singleton = unsafeDowncast(record, to: SingletonRecord.self)
            return try resolveShared(record, key: key) { (singleton, lock) }
        case .weak:
            let weak = unsafeDowncast(record, to: WeakRecord.self)
            return try resolveShared(record, key: key) { (weak, lock) }
        case .custom:
            return try resolveScoped(record, key: key, slotLock: lock, requester: requester ?? self)
        case .asyncFactory:
            // Never blocks for (or starts) an async build: only `resolveAsync` builds it.
            throw DIError.asyncResolutionRequired(T.self, name: key.name)
        case .arguments:
            throw Container.argumentsRequired(record, type: T.self, name: key.name)
        case .contextual:
            return try resolveContextual(record, key: key, lock: lock, type: type, requester: requester)
        }
    }

    /// Resolves the entry of a key with context registrations that applies now (the active
    /// context's, else the plain one), or, when none does, the parent's registration. Specialized
    /// for `T` but out of line: only keys with a context registration come here, and the inlined
    /// resolution path of every other key stays as it was.
    @inlinable @inline(never)
    func resolveContextual<T>(
        _ record: RegistrationRecord, key: RegistryKey, lock: WordLock, type: T.Type, requester: Container?
    ) throws(DIError) -> T {
        guard let selection = Container.contextualSelection(record) else {
            return try resolveMissing(T.self, key: key, requester: requester)
        }
        let chosen = selection.record
        // `resolve(record:)`'s dispatch, for a plain record (an entry is never contextual itself).
        switch chosen.scopeTag {
        case .transient:
            return try runFactory(chosen.factory.typed(as: T.self), key: key, type: type)
        case .singleton:
            let singleton = unsafeDowncast(chosen, to: SingletonRecord.self)
            return try resolveShared(chosen, key: key) { (singleton, lock) }
        case .weak:
            let weak = unsafeDowncast(chosen, to: WeakRecord.self)
            return try resolveShared(chosen, key: key) { (weak, lock) }
        case .custom:
            return try resolveScoped(
                chosen, key: key, slotLock: lock, requester: requester ?? self, cellSlot: selection.cellSlot)
        case .asyncFactory:
            throw DIError.asyncResolutionRequired(T.self, name: key.name)
        case .arguments:
            throw Container.argumentsRequired(chosen, type: T.self, name: key.name)
        case .contextual:
            return try resolveMissing(T.self, key: key, requester: requester)
        }
    }

    /// The entry of a key with context registrations (`record`, a ``ContextualRecord``) that
    /// applies now, with the slot of its custom-scope cells; `nil` when none applies.
    @usableFromInline
    static func contextualSelection(_ record: RegistrationRecord) -> (record: RegistrationRecord, cellSlot: UInt?)? {
        // The tag says the record is a `ContextualRecord`.
        guard let entry = unsafeDowncast(record, to: ContextualRecord.self).selectedEntry else { return nil }
        return (entry.record, ContextualRecord.cellSlot(of: entry.record, context: entry.context))
    }

    /// The failure of a resolution without arguments of a factory taking some.
    @usableFromInline
    static func argumentsRequired(_ record: RegistrationRecord, type: Any.Type, name: String?) -> DIError {
        .argumentMismatch(type, name: name, expected: record.argumentTypes, passed: [])
    }

    /// Runs a factory with cycle detection; the caller holds no lock.
    @inlinable
    package func runFactory<T>(_ factory: @Sendable () throws -> T, key: RegistryKey, type: T.Type) throws(DIError) -> T
    {
        // One load decides for a process with no decorator and no timing hook. With a decorator
        // somewhere, this container is asked for the key's decorators (an out-of-line call: a
        // load and a scan), applied below in code specialized for `T`: the generic, unspecialized
        // timed path made a decorated transient cost 2× an undecorated one plus the decorator.
        var decorators: Unmanaged<DecoratorList>?
        if factoryHooksFlag.load(ordering: .relaxed) {
            if timingFlag.load(ordering: .relaxed) { return try runTimedFactory(factory, key: key, type: type) }
            decorators = decoratorList(of: key)
        }
        let stack = ThreadStack.current
        let depth = stack.depth
        // Only a resolution made inside a factory can close a cycle or add a graph edge.
        if depth != 0 {
            try enterNested(key: key, type: type, stack: stack)
        } else {
            noteAsyncEdge(to: key, type: type)
        }
        stack.push(key, type: type, container: identity)
        defer { stack.pop(pushedAt: depth) }
        do {
            let value = try factory()
            // Inside the factory's frame: what a decorator resolves is a dependency of `T`.
            guard let decorators else { return value }
            return try applyDecorators(decorators, to: value)
        } catch {
            throw Container.wrap(error, type: type, name: key.name, stack: stack.object)
        }
    }

    /// ``runFactory(_:key:type:)`` while resolutions are timed: the time is reported once the
    /// factory's frame is off the stack, so a slow-resolution hook runs outside the factory (a
    /// resolution it makes is not nested in it: no false cycle, no false graph edge).
    @usableFromInline
    func runTimedFactory<T>(_ factory: @Sendable () throws -> T, key: RegistryKey, type: T.Type) throws(DIError) -> T {
        var elapsed: Double?
        defer { if let elapsed { reportDuration(elapsed, key: key, type: type) } }
        return try runFactoryFrame(factory, key: key, type: type, elapsed: &elapsed)
    }

    /// Pushes the factory's frame, runs it, pops the frame; measures it into `elapsed` when
    /// resolutions are timed (and `resolveWithTracking` is not already timing this one). The
    /// caller reports the time after the frame is popped (and, for a shared instance, stored).
    @usableFromInline
    func runFactoryFrame<T>(
        _ factory: @Sendable () throws -> T, key: RegistryKey, type: T.Type, elapsed: inout Double?
    ) throws(DIError) -> T {
        let threadStack = ThreadStack.current
        let depth = threadStack.depth
        if depth != 0 {
            try enterNested(key: key, type: type, stack: threadStack)
        } else {
            noteAsyncEdge(to: key, type: type)
        }
        threadStack.push(key, type: type, container: identity)
        defer { threadStack.pop(pushedAt: depth) }
        let stack = threadStack.object
        guard timingFlag.load(ordering: .relaxed) else {
            do { return try decorated(factory(), key: key) } catch {
                throw Container.wrap(error, type: type, name: key.name, stack: stack)
            }
        }
        // The factory run `resolveWithTracking` times as a whole is not counted twice.
        let isTracked = stack.tracked.map { $0.key == key && $0.depth == stack.depth - 1 } ?? false
        let start = monotonicSeconds()
        defer { if !isTracked { elapsed = monotonicSeconds() - start } }
        do { return try decorated(factory(), key: key) } catch {
            throw Container.wrap(error, type: type, name: key.name, stack: stack)
        }
    }

    /// Counts a factory run's duration and tells the slow-resolution hooks and log; called with
    /// no factory frame of it on the stack and no lock held.
    ///
    /// Hooks and logs hear it once no factory at all runs on this thread: a nested resolution's
    /// report waits for the outermost one to finish, so a hook that resolves never runs inside
    /// a factory (it would add false edges to the dependency graph, or close a false cycle).
    func reportDuration(_ seconds: Double, key: RegistryKey, type: Any.Type) {
        statisticsStore.recordDuration(key, type: type, seconds: seconds)
        guard failureSink == nil else { return }
        let stack = ResolutionStack.current
        stack.pendingTimings.append(PendingTiming(type: type, name: key.name, seconds: seconds))
        guard stack.depth == 0 else { return }
        let due = stack.pendingTimings
        stack.pendingTimings = []
        for timing in due {
            ObservationCenter.shared.reportResolutionTime(timing.type, name: timing.name, seconds: timing.seconds)
        }
    }

    /// Stack guard, cycle check and graph edge for a resolution made while a factory runs on this
    /// thread.
    @usableFromInline
    func enterNested(key: RegistryKey, type: Any.Type, stack: ThreadStack) throws(DIError) {
        let depth = stack.depth
        if let shortage = stack.stackShortage(depth: depth) {
            throw tooDeep(stack, limit: .threadStack(remainingBytes: shortage.remaining, neededBytes: shortage.needed))
        }
        let limit = flags.depthLimit.load(ordering: .relaxed)
        if depth >= limit { throw tooDeep(stack, limit: .maximumResolutionDepth(limit)) }
        let cycleStart = stack.indexOf(key, in: identity)
        // An edge closing a cycle is a real dependency too: the graph shows the cycle. (The
        // stack is not empty here, so the edge check is made in place rather than via `noteEdge`.)
        if recordsGraph, stack.rememberEdge(to: key, container: identity, epoch: graph.epoch) {
            recordEdge(to: key, type: type, stack: stack)
        }
        if let cycleStart {
            throw Container.ownCycle(from: cycleStart, closingWith: type, name: key.name, stack: stack.object)
        }
    }

    /// The cycle a resolution closes on this thread's own stack (`key`'s frame is at `index`).
    ///
    /// The shared instances this thread builds from that frame up are on the cycle: each is
    /// marked with it, so should its build fail, the threads waiting for it get this cycle
    /// instead of building it again (they would only close it again; and a factory that starts
    /// a thread or a `Task {}` resolving what it builds would start one more per retry, each
    /// told to build again in turn, without end).
    @usableFromInline @inline(never)
    static func ownCycle(from index: Int, closingWith type: Any.Type, name: String?, stack: ResolutionStack) -> DIError
    {
        let error = DIError.circularDependency(path: stack.cyclePath(from: index, closingWith: type, name: name))
        let onCycle = stack.openBuilds.lazy.filter { $0.index >= index }.map(\.ticket)
        if !onCycle.isEmpty { BuildCoordinator.shared.markProvenCycle(error, on: Array(onCycle)) }
        return error
    }

    /// The failure of a nested resolution refused by `limit`, with the head of the thread's path.
    @inline(never)
    func tooDeep(_ stack: ThreadStack, limit: DIError.DepthLimit) -> DIError {
        let depth = stack.depth
        let head = (0..<min(depth, 8)).map { stack.object.frame(at: $0).displayName }
        return DIError.resolutionTooDeep(path: head, depth: depth, limit: limit)
    }

    /// Turns what a factory threw into the resolution's error; called with the factory's frame
    /// still on `stack`.
    @usableFromInline
    static func wrap(_ error: any Error, type: Any.Type, name: String?, stack: ResolutionStack) -> DIError {
        // A DIError from a nested resolution (a cycle, a missing dependency) keeps its own detail,
        // and was already reported by the nested call.
        if let error = error as? DIError {
            stack.notePropagation(of: error)
            return error
        }
        return .factoryFailed(type, name: name, underlying: error)
    }

    /// Returns the shared instance in the storage `cell()` names (with the lock guarding it),
    /// building it once.
    ///
    /// The build/wait protocol of the concurrency model (Spec/BuildWait.pml, `resolveShared`):
    /// under `lock`, a built instance is returned; an empty storage gets a ticket and this thread
    /// builds; storage with a ticket is waited for through ``BuildCoordinator`` (an edge of the
    /// wait-for graph, refused when it would close a cycle), then looked at again. `cell` is asked
    /// again when the storage was abandoned, because a scoped resolution's storage changes when its
    /// scope instance ends (it throws when the resolution cannot go on).
    @usableFromInline
    func resolveShared<T, Cell: InstanceStorage>(
        _ record: RegistrationRecord, key: RegistryKey, cell: () throws(DIError) -> (Cell, WordLock)
    ) throws(DIError) -> T {
        let threadStack = ThreadStack.current
        let stack = threadStack.object
        if let index = threadStack.indexOf(key, in: identity) {
            if recordsGraph { noteEdge(to: key, type: T.self, stack: threadStack) }
            throw Container.ownCycle(from: index, closingWith: T.self, name: key.name, stack: stack)
        }
        let me = stack.threadID
        var (storage, lock) = try cell()
        var ticket: BuildTicket
        var built: T?
        while true {
            // The ticket's gate is taken before it is published.
            switch storage.nextStep(
                &built, lock: lock, openTicket: { BuildTicket(job: .registration(record), owner: me) })
            {
            case .built:
                if recordsGraph { noteEdge(to: key, type: T.self, stack: threadStack) }
                return built!
            case .abandoned:
                (storage, lock) = try cell()
                continue
            case .wait(let building):
                try BuildCoordinator.shared.wait(
                    for: building, waiter: me, waiterPath: stack.path, ownBuilds: stack.openBuilds.map(\.ticket))
                continue
            case .build(let mine):
                ticket = mine
            }
            break
        }
        var elapsed: Double?
        let value: T
        // The factory's frame goes at the current depth: a cycle found above it marks this build.
        stack.openBuilds.append((threadStack.depth, ticket))
        do {
            value = try runFactoryFrame(record.factory.typed(as: T.self), key: key, type: T.self, elapsed: &elapsed)
        } catch {
            stack.openBuilds.removeLast()
            storage.failBuild(ticket, lock: lock, failure: error)
            if let elapsed { reportDuration(elapsed, key: key, type: T.self) }
            throw error
        }
        stack.openBuilds.removeLast()
        let kept = storage.finishBuild(ticket, lock: lock, storing: value)
        // Hooks and logs run now: the frame is popped and the instance stored.
        if let elapsed { reportDuration(elapsed, key: key, type: T.self) }
        if !kept { try disposeUnkept(value, in: storage) }
        return value
    }

    /// After a build that kept nothing because its scope instance ended with `end(reason:)`:
    /// an `AsyncDisposable` instance is disposed (in a new task: this thread cannot wait for
    /// it) and the resolution fails with `scopeEnded` instead of handing it out.
    @usableFromInline
    func disposeUnkept<T>(_ value: T, in storage: some InstanceStorage) throws(DIError) {
        guard let cell = storage as? InstanceCell, let unkept = cell.unkeptDisposal(of: value) else { return }
        if let disposable = unkept.disposable {
            let reason = unkept.reason
            Task { await disposable.dispose(reason: reason) }
        }
        throw unkept.error
    }

    /// Resolves a custom-scope registration in the scope instance that applies: the one bound
    /// (`withScope`) to `requester` or the nearest of its parents, else this container's current
    /// instance of the scope.
    @usableFromInline
    func resolveScoped<T>(
        _ record: RegistrationRecord, key: RegistryKey, slotLock: WordLock,
        requester: Container, cellSlot: UInt? = nil
    ) throws(DIError) -> T {
        // A custom-scope tag means the record is a `ScopedRecord`.
        let scoped = unsafeDowncast(record, to: ScopedRecord.self)
        // A graph-scoped resolution made while nothing resolves on this thread starts the thread's
        // graph: its own factory's frame ends it when popped; this ends it should no frame be
        // pushed (a failure before the factory runs).
        let startsGraph = scoped.scope.isGraph && !ThreadStack.isResolving
        defer { if startsGraph { endUnpoppedGraph() } }
        // The thread's own graph (no async factory runs above): no other thread can reach it.
        if scoped.scope.isGraph, AsyncResolutionPath.openTop == nil {
            return try resolveInThreadGraph(scoped, key: key, slot: cellSlot ?? UInt(bitPattern: slotLock.word))
        }
        // Scope instances key cells by slot and name; a per-argument record brings its own slot.
        let slot = cellSlot ?? UInt(bitPattern: slotLock.word)
        // The scope instance owns the lock word `resolveShared` uses: keep it alive until then
        // (`instance` is always the one whose lock was handed out last).
        var instance = try scopeInstance(for: scoped, requester: requester, previous: nil)
        defer { withExtendedLifetime(instance) {} }
        return try resolveShared(record, key: key) { () throws(DIError) -> (InstanceCell, WordLock) in
            // Called first, and again if the instance ended while this thread waited.
            var released: InstanceCell?
            while true {
                instance.lock.lock()
                if !instance.ended {
                    let cell = instance.cell(for: scoped, slot: slot, replaced: &released)
                    instance.lock.unlock()
                    return (cell, instance.lock)
                }
                instance.lock.unlock()
                instance = try scopeInstance(for: scoped, requester: requester, previous: instance)
            }
        }
    }

    /// The scope instance a resolution of `record` through `requester` uses now (the rule is
    /// ``ScopeBinding/instance(of:for:in:)``'s; with no binding that applies, this container's
    /// current instance). `previous` is one found ended: a bound instance that ended fails the
    /// resolution; the container's own current instance is replaced by a new one (`endScope`
    /// promises the next resolution a new instance).
    @usableFromInline
    func scopeInstance(for record: some ScopedRegistration, requester: Container, previous: ScopeInstance?)
        throws(DIError) -> ScopeInstance
    {
        let scope = record.scope
        // Counted for graphs too: an `InjectedValues` default that resolved a graph instance is
        // its reader's outermost resolution's, so it is not kept.
        ResolutionStack.current.scopedResolutions &+= 1
        if scope.isGraph { return currentGraph() }
        let name = scope.name
        let bindings = ScopeBinding.bound
        if !bindings.isEmpty, let instance = ScopeBinding.instance(of: name, for: requester, in: bindings) {
            if instance === previous { throw DIError.scopeEnded(scope: name, type: record.type) }
            ConcurrencyProbe.reach(.scopeInstanceChosen, scope: name)
            return instance
        }
        ConcurrencyProbe.reach(.scopeInstanceChosen, scope: name)
        var container: Container? = self
        while let current = container {
            if current.scopes.requiresBinding(of: name) {
                throw DIError.scopeNotBound(scope: name, type: record.type)
            }
            container = current.parent
        }
        return scopes.instance(for: scope)
    }

    @usableFromInline
    func resolveMissing<T>(_ type: T.Type, key: RegistryKey, requester: Container?) throws(DIError) -> T {
        if let parent {
            let requester = requester ?? self
            // An autowired factory of the parent resolves its parameters through `requester`.
            let delegation = ThreadStack.current.delegate(to: requester)
            defer { delegation.end() }
            if key.name == nil {
                return try parent.resolveSlot(
                    key: RegistryKey(rawID: key.id, name: nil), name: nil, requester: requester)
            }
            return try parent.resolveSlot(key: key, name: key.name, requester: requester)
        }
        throw DIError.dependencyNotFound(type, name: key.name)
    }

    package func resolveErased(_ type: Any.Type, name: String?, requester: Container? = nil) throws(DIError) -> Any {
        let target = try resolutionTarget()
        if target !== self { return try target.resolveErased(type, name: name) }
        let key = RegistryKey(anyType: type, name: name)
        if let slot = registry.slot(for: key.id) {
            let record = slot.lock.withLock { slot.findCountingResolution(named: name)?.takeUnretainedValue() }
            if let record { return try record.resolveErased(in: self, key: key, slot: slot, requester: requester) }
        }
        if let parent {
            let requester = requester ?? self
            let delegation = ThreadStack.current.delegate(to: requester)
            defer { delegation.end() }
            return try parent.resolveErased(type, name: name, requester: requester)
        }
        throw DIError.dependencyNotFound(type, name: name)
    }
}
