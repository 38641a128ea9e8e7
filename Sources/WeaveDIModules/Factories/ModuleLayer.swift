import WeaveDICore

/// Where a factory's modules sit in an app's layering. ``ModuleFactoryManager`` makes and registers
/// factories in this order (infrastructure first, custom last), and its statistics count by layer.
public enum ModuleLayer: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Databases, networking, logging: what everything else is built on.
    case infrastructure
    /// Data access: repositories, API clients, caches.
    case repository
    /// Business logic: use cases and domain rules.
    case useCase
    /// Application services that compose use cases.
    case service
    /// Scoped dependencies: per request, per session.
    case scope
    /// View models, coordinators, presenters.
    case presentation
    /// Anything else an app adds; registered last.
    case custom

    /// Orders layers as they are registered: infrastructure first, custom last.
    public static func < (lhs: ModuleLayer, rhs: ModuleLayer) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The layer's name as messages spell it.
    public var description: String {
        switch self {
        case .infrastructure: return "infrastructure"
        case .repository: return "repository"
        case .useCase: return "use case"
        case .service: return "service"
        case .scope: return "scope"
        case .presentation: return "presentation"
        case .custom: return "custom"
        }
    }
}
