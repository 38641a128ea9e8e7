import WeaveDICore

/// An app's configuration as ``ModuleFactoryManager/init(environment:configuration:logger:)``
/// takes it: it names the app's environment type and sets up every layer's factory for an
/// environment. ``ModuleFactoryManager/setupAllFactories()`` calls ``setUpFactories(infrastructure:repository:useCase:scope:presentation:for:)``.
///
/// The app's own infrastructure and presentation factories (each a ``LayerModuleFactory``: a
/// ``ModuleFactory`` with an `init()`) are the types of the `infrastructure` and `presentation`
/// parameters; repository, use-case and
/// scope modules go into WeaveDI's built-in factories. The body is what a hand-written manager's
/// `setupAllFactories()` would do:
///
/// ```swift
/// extension AppConfiguration: ModuleFactoryConfiguration {
///     func setUpFactories(
///         infrastructure: inout InfrastructureModuleFactory,
///         repository: inout RepositoryModuleFactory,
///         useCase: inout UseCaseModuleFactory,
///         scope: inout ScopeModuleFactory,
///         presentation: inout PresentationModuleFactory,
///         for environment: Environment
///     ) {
///         infrastructure.setup(for: environment, config: self)
///         repository.setup()
///         useCase.setup()
///         scope.setup()
///         presentation.setup()
///     }
/// }
/// ```
///
/// `Environment` and the two factory types are inferred from that method; nothing else is needed.
public protocol ModuleFactoryConfiguration: Sendable {
    /// The app's environment type (development, staging, production, ...): the type of the
    /// manager's `environment:` argument, so `environment: .production` names the app's own case.
    associatedtype Environment: Sendable
    /// The app's infrastructure-layer factory (databases, networking, logging). The manager makes
    /// it with `init()` and holds it as ``ModuleFactoryManager/infrastructureFactory``.
    associatedtype InfrastructureFactory: LayerModuleFactory
    /// The app's presentation-layer factory (view models, coordinators). The manager makes it with
    /// `init()` and holds it as ``ModuleFactoryManager/presentationFactory``.
    associatedtype PresentationFactory: LayerModuleFactory

    /// Adds each layer's module definitions for `environment`. Called by
    /// ``ModuleFactoryManager/setupAllFactories()`` with the manager's factories, which keep what
    /// this adds. May be synchronous.
    func setUpFactories(
        infrastructure: inout InfrastructureFactory,
        repository: inout RepositoryModuleFactory,
        useCase: inout UseCaseModuleFactory,
        scope: inout ScopeModuleFactory,
        presentation: inout PresentationFactory,
        for environment: Environment
    ) async
}
