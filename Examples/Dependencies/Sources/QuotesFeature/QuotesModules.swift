import WeaveDI

/// The quotes feature's registrations, as WeaveDI modules: the client and the favourites store,
/// both singletons.
public struct QuotesModuleFactory: ModuleFactory, Sendable {
    /// The maker the definitions use.
    public var registerModule = RegisterModule()
    /// The client's and the store's module definitions.
    public var definitions: [@Sendable () -> Module] = []

    /// Modules serving `catalogue`.
    public init(catalogue: [Quote] = Quote.catalogue) {
        // Definitions must not capture `self` (an escaping closure in an initializer): a local copy.
        let registerModule = self.registerModule
        definitions.append {
            registerModule.makeModule((any QuotesClient).self, scope: .singleton) { CatalogueQuotesClient(catalogue) }
        }
        definitions.append {
            registerModule.makeModule((any FavoritesStore).self, scope: .singleton) { InMemoryFavoritesStore() }
        }
    }
}

/// The composition root.
public enum QuotesDI {
    /// Validates and registers the quotes modules (serving `catalogue`) into `container`: after
    /// it, `@Dependency(\.quotes)` and `@Dependency(\.favorites)` read them.
    @discardableResult
    public static func registerModules(
        into container: Container, catalogue: [Quote] = Quote.catalogue
    ) async throws -> ModuleRegistrationStatistics {
        var manager = ModuleFactoryManager()
        manager.add(QuotesModuleFactory(catalogue: catalogue), layer: .repository)
        return try await manager.registerAll(to: container)
    }
}
