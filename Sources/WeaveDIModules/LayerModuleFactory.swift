import WeaveDICore

/// A ``ModuleFactory`` that can be made empty, with `init()`, so that ``ModuleFactoryManager`` can
/// make it and set it up (see ``ModuleFactoryConfiguration``).
///
/// A factory whose stored properties all have default values has that `init()` already:
///
/// ```swift
/// struct PresentationModuleFactory: LayerModuleFactory {
///     var registerModule = RegisterModule()
///     var definitions: [@Sendable () -> Module] = []
///
///     mutating func setup() { ... }
/// }
/// ```
public protocol LayerModuleFactory: ModuleFactory, Sendable {
    /// A factory with no definitions yet.
    init()
}

extension RepositoryModuleFactory: LayerModuleFactory {}
extension UseCaseModuleFactory: LayerModuleFactory {}
extension ScopeModuleFactory: LayerModuleFactory {}
