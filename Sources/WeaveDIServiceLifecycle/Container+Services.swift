#if ServiceLifecycle
    import ServiceLifecycle
    public import WeaveDI

    /// A resolved singleton that is a `Service`, waiting to be ordered.
    private struct ServiceCandidate {
        let service: any Service
        let typeName: String
        let name: String?
        var displayName: String
        var sortKey: String { typeName + "\u{0}" + (name ?? "") }

        /// `resolved` as a candidate, or `nil` when it is not a `Service`.
        init?(_ resolved: Any, _ info: Container.RegistrationInfo) {
            guard let service = resolved as? any Service else { return nil }
            self.service = service
            typeName = TypeNames.qualified(info.type)
            name = info.name
            displayName = info.displayName
        }
    }

    extension Container {
        /// Resolves every singleton registration of this container (not its parents') and returns
        /// those that are `Service`s, each after every service it depends on.
        ///
        /// "Depends on" comes from the dependency graph, never from registration order: service A
        /// depends on service B when the graph has a path of edges from A's registration to B's,
        /// directly or through registrations that are not services (a transient repository, say).
        /// Without `graph`, the graph is ``WeaveDI/Container/dependencyGraph()`` read after the
        /// singletons were resolved, so every edge a singleton's factory resolved is in it (edges are
        /// not recorded while `UnifiedRegistry.shared.enableOptimization()` is in effect: pass
        /// `validate().graph` then). Services that do not depend on each other are ordered by
        /// registration type name, then name, so the order is the same on every run.
        ///
        /// One instance registered under several keys appears once, at its first place in the order.
        ///
        /// - Throws: ``ServiceOrderError/unresolvable(registration:underlying:)`` when a singleton
        ///   cannot be resolved; ``ServiceOrderError/cycle(_:)`` when declared dependencies form a cycle.
        public func servicesInDependencyOrder(graph: DependencyGraph? = nil) throws(ServiceOrderError)
            -> [RegisteredService]
        {
            var candidates: [ServiceCandidate] = []
            for info in registrations where info.scope == .singleton {
                let resolved: Any
                do {
                    resolved = try resolveErasedOrThrow(info.type, name: info.name)
                } catch {
                    throw .unresolvable(registration: info.displayName, underlying: error as? DIError)
                }
                if let candidate = ServiceCandidate(resolved, info) { candidates.append(candidate) }
            }
            return try order(candidates, graph: graph ?? dependencyGraph())
        }

        /// ``servicesInDependencyOrder(graph:)`` for a container with async singletons
        /// (``WeaveDI/Container/registerAsync(_:scope:file:line:factory:)``): resolves every
        /// singleton registration with `await` — async and synchronous ones — and orders the services
        /// the same way. The synchronous form refuses an async-only singleton with
        /// ``ServiceOrderError/unresolvable(registration:underlying:)``.
        ///
        /// - Throws: ``ServiceOrderError/unresolvable(registration:underlying:)`` when a singleton
        ///   cannot be resolved (its factory threw, or the task was cancelled); ``ServiceOrderError/cycle(_:)``
        ///   when declared dependencies form a cycle.
        public func servicesInDependencyOrderAsync(graph: DependencyGraph? = nil) async throws(ServiceOrderError)
            -> [RegisteredService]
        {
            var candidates: [ServiceCandidate] = []
            for info in registrations where info.scope == .singleton {
                let resolved: Any
                do {
                    resolved = try await resolveErasedAsyncOrThrow(info.type, name: info.name)
                } catch {
                    throw .unresolvable(registration: info.displayName, underlying: error as? DIError)
                }
                if let candidate = ServiceCandidate(resolved, info) { candidates.append(candidate) }
            }
            return try order(candidates, graph: graph ?? dependencyGraph())
        }

        /// Orders resolved service singletons by `graph` (see ``servicesInDependencyOrder(graph:)``).
        private func order(_ candidates: [ServiceCandidate], graph: DependencyGraph) throws(ServiceOrderError)
            -> [RegisteredService]
        {
            var candidates = candidates

            // Graph node of each candidate, and reachability between candidates.
            let nodes: [DependencyGraph.Node?] = candidates.map { candidate in
                graph.nodes.first { $0.typeName == candidate.typeName && $0.name == candidate.name }
            }
            let nodeIDs = nodes.map { $0?.id }
            for (index, node) in nodes.enumerated() {
                if let node { candidates[index].displayName = node.label }
            }
            var successors: [String: [String]] = [:]
            for edge in graph.edges { successors[edge.from, default: []].append(edge.to) }
            let candidateByNode: [String: Int] = Dictionary(
                nodeIDs.enumerated().compactMap { index, id in id.map { ($0, index) } },
                uniquingKeysWith: { first, _ in first })

            var dependsOn: [Set<Int>] = Array(repeating: [], count: candidates.count)
            for (index, start) in nodeIDs.enumerated() {
                guard let start else { continue }
                var seen: Set<String> = [start]
                var stack = successors[start] ?? []
                while let next = stack.popLast() {
                    guard seen.insert(next).inserted else { continue }
                    if let other = candidateByNode[next], other != index { dependsOn[index].insert(other) }
                    stack.append(contentsOf: successors[next] ?? [])
                }
            }

            // Kahn's algorithm; among the ready ones, the smallest type name (then name) first.
            var remaining = Set(candidates.indices)
            var order: [Int] = []
            while !remaining.isEmpty {
                let ready = remaining.filter { dependsOn[$0].isDisjoint(with: remaining) }
                guard let next = ready.min(by: { candidates[$0].sortKey < candidates[$1].sortKey }) else {
                    let cycle = remaining.sorted { candidates[$0].sortKey < candidates[$1].sortKey }
                    throw .cycle(cycle.map { candidates[$0].displayName })
                }
                order.append(next)
                remaining.remove(next)
            }

            var result: [RegisteredService] = []
            var seenObjects: Set<ObjectIdentifier> = []
            for index in order {
                let candidate = candidates[index]
                if type(of: candidate.service) is AnyClass {
                    let object = candidate.service as AnyObject
                    guard seenObjects.insert(ObjectIdentifier(object)).inserted else { continue }
                }
                let dependencies = dependsOn[index].map { candidates[$0].displayName }.sorted()
                result.append(
                    RegisteredService(
                        service: candidate.service, name: candidate.displayName,
                        dependencies: dependencies))
            }
            return result
        }

        /// Resolves a registration known by its metatype with `await`, or throws why it could not.
        private func resolveErasedAsyncOrThrow(_ type: Any.Type, name: String?) async throws -> Any {
            func open<T>(_: T.Type) async throws -> Any {
                if let name { return try await resolveAsync(name, T.self) }
                return try await resolveAsync(T.self)
            }
            return try await open(type)
        }

        /// Resolves a registration known by its metatype, or throws why it could not.
        private func resolveErasedOrThrow(_ type: Any.Type, name: String?) throws -> Any {
            func open<T>(_: T.Type) throws -> Any {
                if let name { return try resolveOrThrow(name, T.self) }
                return try resolveOrThrow(T.self)
            }
            return try open(type)
        }
    }
#endif
