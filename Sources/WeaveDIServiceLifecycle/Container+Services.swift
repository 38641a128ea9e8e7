#if ServiceLifecycle
    import ServiceLifecycle
    public import WeaveDI
    import WeaveDICore

    /// A resolved singleton that is a `Service` or `AsyncDisposable`, waiting to be ordered.
    struct SingletonCandidate {
        let instance: Any
        let type: Any.Type
        let name: String?
        var displayName: String
        var service: (any Service)? { instance as? any Service }
        var sortKey: String { TypeNames.qualified(type) + "\u{0}" + (name ?? "") }

        /// `resolved` as a candidate, or `nil` when it is neither a `Service` nor `AsyncDisposable`.
        init?(_ resolved: Any, _ info: Container.RegistrationInfo) {
            guard resolved is any Service || resolved is any AsyncDisposable else { return nil }
            instance = resolved
            type = info.type
            name = info.name
            displayName = info.displayName
        }
    }

    /// A singleton at its place in the teardown order, with the services it depends on.
    struct OrderedSingleton {
        let candidate: SingletonCandidate
        let serviceDependencies: [String]
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
            Self.services(in: try singletonsInDependencyOrder(graph: graph))
        }

        /// The singletons that are services or `AsyncDisposable`, resolved and ordered as
        /// ``servicesInDependencyOrder(graph:)`` orders services: what a service group starts and
        /// tears down, in one order.
        func singletonsInDependencyOrder(graph: DependencyGraph?) throws(ServiceOrderError) -> [OrderedSingleton] {
            var candidates: [SingletonCandidate] = []
            for info in registrations where info.scope == .singleton {
                let resolved: Any
                do {
                    resolved = try resolveErasedOrThrow(info.type, name: info.name)
                } catch {
                    throw .unresolvable(registration: info.displayName, underlying: error as? DIError)
                }
                if let candidate = SingletonCandidate(resolved, info) { candidates.append(candidate) }
            }
            return try order(candidates, graph: graph ?? dependencyGraph())
        }

        static func services(in ordered: [OrderedSingleton]) -> [RegisteredService] {
            ordered.compactMap { entry in
                entry.candidate.service.map {
                    RegisteredService(
                        service: $0, name: entry.candidate.displayName, dependencies: entry.serviceDependencies)
                }
            }
        }

        /// ``servicesInDependencyOrder(graph:)`` for a container with async singletons
        /// (``WeaveDI/Container/registerAsync(_:scope:file:line:factory:)-(_,_,_,_,()->T)``): resolves every
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
            Self.services(in: try await singletonsInDependencyOrderAsync(graph: graph))
        }

        /// ``singletonsInDependencyOrder(graph:)``, resolving with `await`.
        func singletonsInDependencyOrderAsync(graph: DependencyGraph?) async throws(ServiceOrderError)
            -> [OrderedSingleton]
        {
            var candidates: [SingletonCandidate] = []
            for info in registrations where info.scope == .singleton {
                let resolved: Any
                do {
                    resolved = try await resolveErasedAsyncOrThrow(info.type, name: info.name)
                } catch {
                    throw .unresolvable(registration: info.displayName, underlying: error as? DIError)
                }
                if let candidate = SingletonCandidate(resolved, info) { candidates.append(candidate) }
            }
            return try order(candidates, graph: graph ?? dependencyGraph())
        }

        /// Orders resolved singletons by `graph` (see ``servicesInDependencyOrder(graph:)``).
        /// Candidates are matched to graph nodes by registration key when the graph carries keys
        /// (a graph WeaveDI built), by the qualified type name and name otherwise (a decoded one).
        private func order(_ candidates: [SingletonCandidate], graph: DependencyGraph) throws(ServiceOrderError)
            -> [OrderedSingleton]
        {
            var candidates = candidates

            // Graph node of each candidate, and reachability between candidates.
            let nodeByKey = Dictionary(graph.nodeKeys.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let nodeIDs: [String?] = candidates.map { candidate in
                if !nodeByKey.isEmpty { return nodeByKey[RegistryKey(anyType: candidate.type, name: candidate.name)] }
                let typeName = TypeNames.qualified(candidate.type)
                return graph.nodes.first { $0.typeName == typeName && $0.name == candidate.name }?.id
            }
            let labels = Dictionary(graph.nodes.map { ($0.id, $0.label) }, uniquingKeysWith: { first, _ in first })
            for (index, id) in nodeIDs.enumerated() {
                if let id, let label = labels[id] { candidates[index].displayName = label }
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

            var result: [OrderedSingleton] = []
            var seenObjects: Set<ObjectIdentifier> = []
            for index in order {
                let candidate = candidates[index]
                if type(of: candidate.instance) is AnyClass {
                    let object = candidate.instance as AnyObject
                    guard seenObjects.insert(ObjectIdentifier(object)).inserted else { continue }
                }
                let dependencies = dependsOn[index].filter { candidates[$0].service != nil }
                    .map { candidates[$0].displayName }.sorted()
                result.append(OrderedSingleton(candidate: candidate, serviceDependencies: dependencies))
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
