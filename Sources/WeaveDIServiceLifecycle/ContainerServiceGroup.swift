#if ServiceLifecycle
    public import Logging
    public import ServiceLifecycle
    public import UnixSignals
    public import WeaveDI

    /// A `ServiceGroup` of a container's singleton services, in dependency order, that tears down
    /// everything the container built in one order: the reverse of the dependency graph.
    ///
    /// - Start: each service's `run()` is entered only after the `run()` of every service it depends on
    ///   (``WeaveDI/Container/servicesInDependencyOrder(graph:)``), then `additionalServices` in the
    ///   order given (an HTTP server, which uses everything, comes last).
    /// - Teardown: on a graceful shutdown signal or ``triggerGracefulShutdown()``, the additional
    ///   services stop, then the container's singletons that are services or `AsyncDisposable` are
    ///   torn down one after the other, dependents first: a service stops (returns from `run()`)
    ///   and a disposable is disposed with reason `.shutdown`, each only after everything that
    ///   depends on it. A cache built from a database service is flushed before the database
    ///   stops; a service using a connection pool stops before the pool is closed.
    ///   A service that is also `AsyncDisposable` is disposed once its `run()` has returned.
    /// - Leftovers: once the group has stopped (returned or thrown, also when it was cancelled and
    ///   so could not keep the order), every built singleton that is `AsyncDisposable` and not yet
    ///   disposed is disposed with reason `.shutdown`, newest first
    ///   (``WeaveDI/Container/disposeSingletons(where:)``). Each object is disposed at most once.
    public struct ContainerServiceGroup: Sendable {
        /// The container's services, dependencies first.
        public let services: [RegisteredService]
        /// The container whose singletons are disposed after the group stops.
        public let container: Container
        private let group: ServiceGroup
        private let startLog = StartLog()

        /// The names of the services whose `run()` has been called so far, in the order it was
        /// called: each after the `run()` of the services before it in ``services`` (and so after
        /// what it depends on). The additional services come last, named by their type.
        public var startedServices: [String] { startLog.all }

        /// Resolves `container`'s singletons and builds the group.
        ///
        /// Its singletons are resolved synchronously: an async-only singleton
        /// (`registerAsync`) makes it throw ``ServiceOrderError/unresolvable(registration:underlying:)``;
        /// build such a group with ``resolvingAsync(container:additionalServices:graph:gracefulShutdownSignals:logger:)``.
        ///
        /// - Parameters:
        ///   - container: whose singleton registrations are resolved; those that are services run.
        ///   - additionalServices: services started after the container's, in this order, and shut
        ///     down before them (typically the HTTP server).
        ///   - graph: the dependency graph to order by; by default the container's recorded graph.
        ///   - gracefulShutdownSignals: signals that start a graceful shutdown (`[.sigterm, .sigint]`
        ///     for a server).
        ///   - logger: the group's logger.
        /// - Throws: ``ServiceOrderError`` when the services cannot be ordered.
        public init(
            container: Container,
            additionalServices: [any Service] = [],
            graph: DependencyGraph? = nil,
            gracefulShutdownSignals: [UnixSignal] = [],
            logger: Logger
        ) throws(ServiceOrderError) {
            self.init(
                ordered: try container.singletonsInDependencyOrder(graph: graph), container: container,
                additionalServices: additionalServices, gracefulShutdownSignals: gracefulShutdownSignals,
                logger: logger)
        }

        /// Resolves `container`'s singletons with `await` — async singletons
        /// (`registerAsync`, a database pool that connects) and synchronous ones — and builds the
        /// group, ordered as the synchronous initializer orders it
        /// (``WeaveDI/Container/servicesInDependencyOrderAsync(graph:)``).
        ///
        /// - Parameters: as for ``init(container:additionalServices:graph:gracefulShutdownSignals:logger:)``.
        /// - Throws: ``ServiceOrderError`` when a singleton cannot be built or the services cannot be
        ///   ordered.
        public static func resolvingAsync(
            container: Container,
            additionalServices: [any Service] = [],
            graph: DependencyGraph? = nil,
            gracefulShutdownSignals: [UnixSignal] = [],
            logger: Logger
        ) async throws(ServiceOrderError) -> ContainerServiceGroup {
            ContainerServiceGroup(
                ordered: try await container.singletonsInDependencyOrderAsync(graph: graph),
                container: container, additionalServices: additionalServices,
                gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
        }

        private init(
            ordered: [OrderedSingleton],
            container: Container,
            additionalServices: [any Service],
            gracefulShutdownSignals: [UnixSignal],
            logger: Logger
        ) {
            self.services = Container.services(in: ordered)
            self.container = container
            // A disposable that is not a service takes a place in the group too: the group shuts
            // its members down in reverse order, so it is disposed at its place in the graph.
            var members: [(service: any Service, name: String, isService: Bool)] = []
            for entry in ordered {
                if let service = entry.candidate.service {
                    // A service that is also AsyncDisposable is disposed once it has stopped.
                    let member: any Service =
                        entry.candidate.instance is any AsyncDisposable
                        ? ServiceThenDisposal(
                            service: service, container: container, type: entry.candidate.type,
                            name: entry.candidate.name)
                        : service
                    members.append((member, entry.candidate.displayName, true))
                } else {
                    let disposal = SingletonDisposal(
                        container: container, type: entry.candidate.type, name: entry.candidate.name)
                    members.append((disposal, "dispose \(entry.candidate.displayName)", false))
                }
            }
            for service in additionalServices { members.append((service, "\(type(of: service))", true)) }
            let configurations = OrderedStart.chain(members, log: startLog).map {
                ServiceGroupConfiguration.ServiceConfiguration(
                    service: $0,
                    successTerminationBehavior: .gracefullyShutdownGroup,
                    failureTerminationBehavior: .cancelGroup,
                    serviceName: $0.name)
            }
            self.group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: configurations, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
        }

        /// Runs the group until it stops, then disposes the container's built `AsyncDisposable`
        /// singletons that are not disposed yet (newest first), also when the group throws.
        ///
        /// Call it once.
        public func run() async throws {
            do {
                try await group.run()
            } catch {
                await disposeLeftovers()
                throw error
            }
            await disposeLeftovers()
        }

        /// Starts a graceful shutdown: services shut down in reverse start order.
        public func triggerGracefulShutdown() async {
            await group.triggerGracefulShutdown()
        }

        private func disposeLeftovers() async {
            // Every service has returned from `run()` by now: what is left may all be disposed.
            await container.disposeSingletons()
        }
    }
#endif
