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
