import Foundation
import WeaveDICore

#if compiler(>=6.2)
    // The loader hands feature types to the tasks that configure them, so their metatypes must be
    // sendable; compilers before 6.2 treat every metatype as sendable and have no such protocol.
    /// A feature of the app (users, orders, payments) that registers its own dependencies, possibly
    /// relying on other features having registered theirs first.
    ///
    /// ``FeatureModuleLoader`` configures features in dependency order, each exactly once.
    ///
    /// ```swift
    /// struct OrderFeatureModule: FeatureModule {
    ///     static let name = "OrderFeature"
    ///     static func dependencies() -> [String] { ["UserFeature", "PaymentFeature"] }
    ///     static func configure() async {
    ///         await WeaveDI.Container.bootstrap { container in
    ///             container.register(OrderService.self) { OrderServiceImpl() }
    ///         }
    ///     }
    /// }
    /// ```
    public protocol FeatureModule: SendableMetatype {
        /// The feature's unique name; other features list it in their ``dependencies()``.
        static var name: String { get }
        /// Registers the feature's dependencies. It may throw; the loader then reports the failure and
        /// the feature counts as not loaded (a later load tries again). A non-throwing `configure()`
        /// satisfies this requirement.
        static func configure() async throws
        /// The names of the features that must be configured before this one (none by default).
        static func dependencies() -> [String]
    }
#else
    /// A feature of the app that registers its own dependencies, possibly relying on other features
    /// having registered theirs first. ``FeatureModuleLoader`` configures features in dependency
    /// order, each exactly once.
    public protocol FeatureModule {
        /// The feature's unique name; other features list it in their ``dependencies()``.
        static var name: String { get }
        /// Registers the feature's dependencies. It may throw; the loader then reports the failure and
        /// the feature counts as not loaded (a later load tries again).
        static func configure() async throws
        /// The names of the features that must be configured before this one (none by default).
        static func dependencies() -> [String]
    }
#endif

extension FeatureModule {
    /// No dependencies.
    public static func dependencies() -> [String] { [] }
}

/// Why ``FeatureModuleLoader`` could not load a feature.
public enum FeatureModuleError: Error, LocalizedError, CustomStringConvertible {
    /// Features depend on each other in a cycle; `path` starts and ends with the same feature.
    case circularDependency(path: [String])
    /// A feature that is needed is not known to the loader. `path` is the chain of features that
    /// led to it, ending with the unknown name.
    case unknownModule(String, path: [String])
    /// Two different feature types use the same name.
    case duplicateName(String, existing: String, new: String)
    /// The feature's `configure()` threw `underlying`.
    case configurationFailed(String, underlying: any Error)

    /// What went wrong, naming the features involved and what to do.
    public var description: String {
        switch self {
        case .circularDependency(let path):
            return "Feature modules depend on each other in a cycle: \(path.joined(separator: " -> ")). "
                + "Move what they share into a feature both can depend on."
        case .unknownModule(let name, let path):
            let chain = path.count > 1 ? " (needed by \(path.dropLast().joined(separator: " -> ")))" : ""
            return "Unknown feature module '\(name)'\(chain). Register it with the FeatureModuleLoader "
                + "(init(_:) or register(_:)) before loading, or fix the name in dependencies()."
        case .duplicateName(let name, let existing, let new):
            return
                "Feature module name '\(name)' is used by both \(existing) and \(new). Give each feature a unique name."
        case .configurationFailed(let name, let underlying):
            return "Feature module '\(name)' failed to configure: \(underlying)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
