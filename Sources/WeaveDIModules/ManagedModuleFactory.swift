import WeaveDICore

/// A factory held by ``ModuleFactoryManager`` with the name and layer it is registered under.
struct ManagedModuleFactory: Sendable {
    let name: String
    let layer: ModuleLayer
    let factory: any ModuleFactory & Sendable
}
