import Atomics
import Foundation

extension Container {
    // MARK: Public API

    /// Resolves `type`, or returns `nil` when it is not registered here or in a parent, when
    /// resolving it would close a cycle, or when its factory throws. Every failure reaches
    /// `UnifiedDI.onResolutionError`; use ``resolveOrThrow(_:)`` to get it as an error.
    @inlinable
    public func resolve<T>(_ type: T.Type) -> T? {
        do { return try resolveCore(type, name: nil) } catch { report(error); return nil }
    }

    /// Resolves the registration of `type` made under `name`.
    @inlinable
    public func resolve<T>(_ name: String, _ type: T.Type) -> T? {
        do { return try resolveCore(type, name: name) } catch { report(error); return nil }
    }

    /// Resolves a type known only at run time, as in `for type in [Any.Type] { … }`.
    ///
    /// Generic calls never pick this overload: `resolve(UserRepository.self)` is `UserRepository?`.
    @_disfavoredOverload
    public func resolve(_ type: Any.Type) -> Any? {
        do { return try resolveErased(type, name: nil) } catch { report(error); return nil }
    }

    /// Resolves a named registration of a type known only at run time.
    @_disfavoredOverload
    public func resolve(_ name: String, _ type: Any.Type) -> Any? {
        do { return try resolveErased(type, name: name) } catch { report(error); return nil }
    }

    /// Resolves `type` or throws a ``DIError`` saying why it could not: ``DIError/dependencyNotFound(_:name:similar:)``
    /// (with registered look-alikes), ``DIError/circularDependency(path:)`` (with the whole path)
    /// or ``DIError/factoryFailed(_:name:underlying:)`` (with the factory's error).
    @inlinable
    public func resolveOrThrow<T>(_ type: T.Type) throws -> T {
        do { return try resolveCore(type, name: nil) } catch { throw report(error, thrown: true) }
    }

    /// Resolves the registration of `type` made under `name`, or throws why it could not.
    @inlinable
    public func resolveOrThrow<T>(_ name: String, _ type: T.Type) throws -> T {
        do { return try resolveCore(type, name: name) } catch { throw report(error, thrown: true) }
    }

    /// Resolves `type`, or stops the program with a message naming the type, registrations with
    /// similar names, and how to register it. Use it only where a missing registration is a
    /// programming error; ``resolve(_:)-(T.Type)`` and ``resolveOrThrow(_:)`` do not trap.
    public func requireResolve<T>(_ type: T.Type, file: StaticString = #fileID, line: UInt = #line) -> T {
        do { return try resolveCore(type, name: nil) } catch {
            let error = report(error, thrown: true)
            fatalError("WeaveDI.requireResolve(\(String(reflecting: T.self))) failed: \(error.description)", file: file, line: line)
        }
    }

    /// Resolves `type` like ``resolve(_:)-(T.Type)`` and times the whole resolution, cached or
    /// built: a successful one counts once in ``statistics()`` (average and slowest duration of
    /// `type`) and reaches `UnifiedDI.onSlowResolution` when it took at least the threshold.
    public func resolveWithTracking<T>(_ type: T.Type) -> T? {
        tracking(RegistryKey(type), type) { resolve(type) }
    }

    /// Resolves the registration of `type` made under `name`, timing it like
    /// ``resolveWithTracking(_:)``.
    public func resolveWithTracking<T>(_ name: String, _ type: T.Type) -> T? {
        tracking(RegistryKey(type, name: name), type) { resolve(name, type) }
    }

    private func tracking<T>(_ key: RegistryKey, _ type: T.Type, _ body: () -> T?) -> T? {
        let stack = ResolutionStack.current
        let outer = stack.tracked
        stack.tracked = TrackedResolution(key: key, depth: stack.frames.count)
        defer { stack.tracked = outer }
        let start = monotonicSeconds()
        guard let value = body() else { return nil }  // a failure is counted as a miss or reported
        let elapsed = monotonicSeconds() - start
        statisticsStore.recordDuration(key, type: type, seconds: elapsed)
        if failureSink == nil { DiagnosticsCenter.shared.reportResolutionTime(type, name: key.name, seconds: elapsed) }
        return value
    }

    /// Whether `type` (under `name`) is registered here or in a parent, without resolving it.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) -> Bool {
        isRegistered(key: RegistryKey(type, name: name))
    }

    func isRegistered(key: RegistryKey) -> Bool {
        if let slot = registry.slot(for: key.id), slot.lock.withLock({ slot.record(named: key.name) != nil }) {
            return true
        }
        return parent?.isRegistered(key: key) ?? false
    }

    // MARK: Core

    /// Resolves without reporting: the public entry points report, so each failure is heard once.
    @inlinable
    func resolveCore<T>(_ type: T.Type, name: String?) throws(DIError) -> T {
        try resolveCore(key: RegistryKey(type, name: name), type: type)
    }

    /// Resolves the registration stored under `key`, which must have been made for `T`
    /// (`Factory` keys use their own ids).
    @inlinable
    func resolveCore<T>(key: RegistryKey, type: T.Type) throws(DIError) -> T {
        ensureAutoRegistered()
        if let slot = registry.slot(for: key.id) {
            slot.lock.lock()
            if let record = slot.record(named: key.name) {
                record.resolutionCount &+= 1
                // The key is derived from `T`, so the record is a `TypedRecord<T>`: no dynamic cast.
                let typed = unsafeDowncast(record, to: TypedRecord<T>.self)
                if record.scopeTag == 1, let value = typed.cell.value {
                    slot.lock.unlock()
                    if recordsGraph { noteEdge(to: key, type: type) }
                    return value
                }
                slot.lock.unlock()
                return try resolve(record: typed, key: key, slot: slot, type: type)
            }
            slot.lock.unlock()
        }
        return try resolveMissing(type, key: key)
    }

    @inlinable
    func resolve<T>(record: TypedRecord<T>, key: RegistryKey, slot: TypeSlot, type: T.Type) throws(DIError) -> T {
        switch record.scopeTag {
        case 0: return try runFactory(record.factory, key: key, type: type)
        case 1, 2: return try resolveShared(record, cell: record.cell, lock: slot.lock, key: key)
        default: return try resolveScoped(record, key: key)
        }
    }

    /// Runs a factory with cycle detection; the caller holds no lock.
    @inlinable
    func runFactory<T>(_ factory: @Sendable () throws -> T, key: RegistryKey, type: T.Type) throws(DIError) -> T {
        let stack = ResolutionStack.current
        if let index = stack.indexOf(key, in: identity) {
            // The edge closing the cycle is a real dependency: the graph shows the cycle.
            if recordsGraph { noteEdge(to: key, type: type, stack: stack) }
            throw DIError.circularDependency(path: stack.cyclePath(from: index, closingWith: type, name: key.name))
        }
        if recordsGraph { noteEdge(to: key, type: type, stack: stack) }
        stack.frames.append(ResolutionFrame(key: key, type: type, container: identity))
        defer { stack.frames.removeLast() }
        if runtimeFlags.timing.load(ordering: .relaxed) {
            return try runTimed(factory, key: key, type: type, stack: stack)
        }
        do { return try factory() } catch { throw Container.wrap(error, type: type, name: key.name, stack: stack) }
    }

    @usableFromInline
    func runTimed<T>(_ factory: @Sendable () throws -> T, key: RegistryKey, type: T.Type, stack: ResolutionStack) throws(DIError) -> T {
        let start = monotonicSeconds()
        defer {
            let elapsed = monotonicSeconds() - start
            // The factory run `resolveWithTracking` times as a whole is not counted twice.
            let isTracked = stack.tracked.map { $0.key == key && $0.depth == stack.frames.count - 1 } ?? false
            if !isTracked {
                statisticsStore.recordDuration(key, type: type, seconds: elapsed)
                if failureSink == nil { DiagnosticsCenter.shared.reportResolutionTime(type, name: key.name, seconds: elapsed) }
            }
        }
        do { return try factory() } catch { throw Container.wrap(error, type: type, name: key.name, stack: stack) }
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

    /// Builds (once) or returns the shared instance in `cell`, which `lock` guards.
    @usableFromInline
    func resolveShared<T>(_ record: TypedRecord<T>, cell: InstanceCell<T>, lock: SlotLock, key: RegistryKey) throws(DIError) -> T {
        let stack = ResolutionStack.current
        if let index = stack.indexOf(key, in: identity) {
            if recordsGraph { noteEdge(to: key, type: T.self, stack: stack) }
            throw DIError.circularDependency(path: stack.cyclePath(from: index, closingWith: T.self, name: key.name))
        }
        let me = stack.threadID
        while true {
            lock.lock()
            if let value = cell.cached {
                lock.unlock()
                if recordsGraph { noteEdge(to: key, type: T.self, stack: stack) }
                return value
            }
            if cell.builder == nil {
                cell.builder = me
                lock.unlock()
                break
            }
            lock.unlock()
            try BuildCoordinator.shared.waitForBuilder(
                waiter: me, what: record, waiterPath: stack.path,
                currentBuilder: { lock.withLock { cell.builder } })
        }
        let value: T
        do {
            value = try runFactory(record.factory, key: key, type: T.self)
        } catch {
            BuildCoordinator.shared.signal { lock.withLock { cell.builder = nil } }
            throw error
        }
        BuildCoordinator.shared.signal {
            lock.withLock {
                cell.store(value)
                cell.builder = nil
            }
        }
        return value
    }

    @usableFromInline
    func resolveScoped<T>(_ record: TypedRecord<T>, key: RegistryKey) throws(DIError) -> T {
        let instance = currentScopeInstance(for: record.scope)
        instance.lock.lock()
        if instance.ended {
            instance.lock.unlock()
            throw DIError.scopeEnded(scope: record.scope.customName ?? record.scope.description, type: T.self)
        }
        let cell = instance.cell(for: record)
        instance.lock.unlock()
        return try resolveShared(record, cell: cell, lock: instance.lock, key: key)
    }

    @usableFromInline
    func resolveMissing<T>(_ type: T.Type, key: RegistryKey) throws(DIError) -> T {
        if let parent { return try parent.resolveCore(key: key, type: type) }
        throw DIError.dependencyNotFound(type, name: key.name)
    }

    func resolveErased(_ type: Any.Type, name: String?) throws(DIError) -> Any {
        ensureAutoRegistered()
        let key = RegistryKey(anyType: type, name: name)
        if let slot = registry.slot(for: key.id) {
            let record = slot.lock.withLock { () -> RegistrationRecord? in
                let record = slot.record(named: name)
                record?.resolutionCount &+= 1
                return record
            }
            if let record { return try record.resolveErased(in: self, key: key, slot: slot) }
        }
        if let parent { return try parent.resolveErased(type, name: name) }
        throw DIError.dependencyNotFound(type, name: name)
    }

    // MARK: Reporting

    /// Reports a failure to the hooks and the log (or, in a validation sandbox, to its
    /// collector), counting a miss and adding look-alike registrations to it.
    ///
    /// A failure a factory rethrew after a nested call reported it is not reported again, so the
    /// hooks hear each failure once. Look-alikes are computed only when someone will read them
    /// (`thrown`: the caller gets the error), so a quiet miss builds no strings.
    @usableFromInline @discardableResult
    func report(_ error: DIError, thrown: Bool = false) -> DIError {
        let stack = ResolutionStack.current
        if stack.takePropagated(error) { return error }
        var error = error
        if case let .dependencyNotFound(type, name, similar) = error {
            let key = RegistryKey(anyType: type, name: name)
            statisticsStore.recordMiss(key, type: type)
            if recordsGraph, let dependent = stack.frames.last { graph.record(from: dependent, to: key, type: type) }
            if similar.isEmpty, thrown || failureSink != nil || DiagnosticsCenter.shared.hasListeners(for: error) {
                error = .dependencyNotFound(type, name: name, similar: similarRegistrations(to: type))
            }
        }
        if let failureSink {
            failureSink.collect(error, dependent: stack.frames.last)
        } else {
            DiagnosticsCenter.shared.reportFailure(error)
        }
        stack.noteReported(error)
        return error
    }

    /// Records "the factory running on this thread resolved `key`" in the dependency graph.
    @usableFromInline
    func noteEdge(to key: RegistryKey, type: Any.Type, stack: ResolutionStack? = nil) {
        let stack = stack ?? ResolutionStack.current
        guard let parentFrame = stack.frames.last else { return }
        if stack.rememberEdge(from: parentFrame.key, to: key, container: identity, epoch: graph.epoch) {
            graph.record(from: parentFrame, to: key, type: type)
        }
    }

    /// Registered types (here and in parents) whose names resemble `type`'s.
    func similarRegistrations(to type: Any.Type) -> [String] {
        let wanted = String(describing: type).lowercased()
        var candidates: [String] = []
        var container: Container? = self
        while let current = container {
            current.registry.forEachSlot { slot in
                let hasRecords = slot.lock.withLock { slot.unnamed != nil || !slot.named.isEmpty }
                if hasRecords { candidates.append(String(reflecting: slot.type)) }
            }
            container = current.parent
        }
        return Array(Set(candidates.filter { candidate in
            let short = (candidate.split(separator: ".").last.map(String.init) ?? candidate).lowercased()
            return short != wanted && Container.looksAlike(short, wanted)
        })).sorted()
    }

    static func looksAlike(_ a: String, _ b: String) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if a.contains(b) || b.contains(a) { return true }
        let distance = editDistance(Array(a.utf8), Array(b.utf8))
        return distance <= max(2, min(a.count, b.count) / 3)
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    // MARK: Scopes

    @usableFromInline
    func currentScopeInstance(for scope: Scope) -> ScopeInstance {
        let name = scope.customName ?? scope.description
        if let bound = ScopeBinding.bound[ScopeBinding.Key(container: identity, scope: name)] { return bound }
        return scopes.instance(for: scope)
    }
}

extension ResolutionStack {
    /// Remembers the last few edges this thread recorded, so a hot loop does not take the
    /// graph's lock on every nested resolution. Returns whether the edge is new to this thread.
    @usableFromInline
    func rememberEdge(from: RegistryKey, to: RegistryKey, container: ObjectIdentifier, epoch: Int) -> Bool {
        for edge in recentEdges
        where edge.from == from && edge.to == to && edge.container == container && edge.epoch == epoch {
            return false
        }
        if recentEdges.count == 8 { recentEdges.removeFirst() }
        recentEdges.append(RecentEdge(from: from, to: to, container: container, epoch: epoch))
        return true
    }
}
