// Graph scope (`Scope.graph`): a graph-scoped registration is a scoped one (`ScopedRecord`, or an
// `AsyncRecord` whose lifetime is `.graph`) whose scope instance is the graph of the outermost
// resolution, so the build-once protocol, per-argument cells, decorators and cycle detection of
// custom scopes apply unchanged. Where the graph lives:
// - an outermost synchronous resolution's graph is the thread's (`ResolutionStack.graph`):
//   synchronous factories never leave their thread, and the pop that ends the outermost factory
//   releases it (`ThreadStack.pop`);
// - an outermost async resolution's graph is held by its frame, the outermost open frame of the
//   task-local path (`AsyncFrame.graphOwner`), which child tasks inherit; closing the frame
//   releases it. A synchronous factory run inside an async one uses the async graph.

extension Container {
    /// The graph a graph-scoped resolution made now shares: the outermost open async factory's
    /// when one runs in (or above) this task, else this thread's (started if there is none).
    func currentGraph() -> ScopeInstance {
        if let top = AsyncResolutionPath.openTop { return top.graphOwner.sharedGraph() }
        return ResolutionStack.current.currentGraph()
    }

    /// Releases the thread's graph after an outermost graph-scoped resolution, when no pop did
    /// (the resolution failed before its factory ran).
    func endUnpoppedGraph() {
        let stack = ThreadStack.current
        if stack.depth == 0, stack.header.pointee.hasGraph { stack.object.dropGraph() }
    }

    /// A graph-scoped registration's instance in the thread's graph, built once per graph.
    ///
    /// Only this thread reaches its graph (synchronous factories never leave their thread, and a
    /// thread's graph is used only while no async factory runs above it), so the build needs no
    /// ticket and no wait: the same registration asked for while its factory runs is on this
    /// thread's stack, a cycle reported before its cell is looked at.
    func resolveInThreadGraph<T>(_ record: ScopedRecord, key: RegistryKey, slot: UInt) throws(DIError) -> T {
        let threadStack = ThreadStack.current
        if let index = threadStack.indexOf(key, in: identity) {
            if recordsGraph { noteEdge(to: key, type: T.self, stack: threadStack) }
            throw Container.ownCycle(from: index, closingWith: T.self, name: key.name, stack: threadStack.object)
        }
        // An `InjectedValues` default computing this is not kept (see `scopedResolutions`).
        threadStack.object.scopedResolutions &+= 1
        let graph = threadStack.object.currentGraph()
        var replaced: InstanceCell?
        graph.lock.lock()
        let cell = graph.cell(for: record, slot: slot, replaced: &replaced)
        graph.lock.unlock()
        if let value = cell.cached(as: T.self) {
            if recordsGraph { noteEdge(to: key, type: T.self, stack: threadStack) }
            return value
        }
        var elapsed: Double?
        let value: T
        do {
            value = try runFactoryFrame(record.factory.typed(as: T.self), key: key, type: T.self, elapsed: &elapsed)
        } catch {
            if let elapsed { reportDuration(elapsed, key: key, type: T.self) }
            throw error
        }
        // The cell outlives the graph it was in when this was the outermost resolution (the pop
        // just released that graph): storing is harmless then, and nothing reads it.
        if !cell.hasInstance { cell.store(value) }
        if let elapsed { reportDuration(elapsed, key: key, type: T.self) }
        return value
    }

    /// An outermost `resolveAsync` of a graph-scoped async registration: its instance is built in
    /// a new graph, which the frame its factory runs in holds, so what that factory resolves
    /// shares it (and a child task resolving the type waits for this build: a cycle is found).
    func resolveOutermostGraphAsync<T>(_ record: AsyncRecord, key: RegistryKey, slot: UInt) async throws -> T {
        let graph = ScopeInstance(scope: .graph)
        var replaced: InstanceCell?
        graph.lock.lock()
        let cell = graph.cell(for: record, slot: slot, replaced: &replaced)
        graph.lock.unlock()
        return try await resolveSharedAsync(record, key: key, adoptingGraph: graph) { (cell, graph.lock) }
    }
}
