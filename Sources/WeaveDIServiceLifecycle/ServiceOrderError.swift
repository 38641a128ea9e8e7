#if ServiceLifecycle
    public import WeaveDI

    /// Why a container's services could not be put in dependency order.
    public enum ServiceOrderError: Error, Sendable, CustomStringConvertible {
        /// A singleton registration could not be resolved, so whether it is a service is unknown.
        case unresolvable(registration: String, underlying: DIError?)
        /// The services depend on each other in a cycle (possible only through declared module
        /// dependencies: a resolution cycle fails to resolve); the names of the services in it.
        case cycle([String])

        public var description: String {
            switch self {
            case .unresolvable(let registration, let underlying):
                return "singleton \(registration) could not be resolved" + (underlying.map { ": \($0)" } ?? "")
            case .cycle(let names):
                return "services depend on each other in a cycle: \(names.joined(separator: " → "))"
            }
        }
    }
#endif
