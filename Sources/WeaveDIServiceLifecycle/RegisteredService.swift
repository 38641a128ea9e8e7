#if ServiceLifecycle
    public import ServiceLifecycle
    import WeaveDI

    /// A singleton of a container that is a `Service`, with the services it depends on.
    ///
    /// ``WeaveDI/Container/servicesInDependencyOrder(graph:)`` returns these dependencies first;
    /// ``ContainerServiceGroup`` runs them in that order.
    public struct RegisteredService: Sendable, CustomStringConvertible {
        /// The resolved singleton.
        public let service: any Service
        /// The registration it was resolved from: its dependency-graph label (`Database`,
        /// `Cache["images"]`; module-qualified only when two labels would read the same).
        public let name: String
        /// The names of the services it depends on, directly or through registrations that are not
        /// services, sorted.
        public let dependencies: [String]

        /// A service named `name` that depends on the services named in `dependencies`.
        public init(service: any Service, name: String, dependencies: [String]) {
            self.service = service
            self.name = name
            self.dependencies = dependencies
        }

        public var description: String {
            dependencies.isEmpty ? name : "\(name) (after \(dependencies.joined(separator: ", ")))"
        }
    }
#endif
