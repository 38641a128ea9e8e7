import Observation
import QuotesFeature
import Testing
import WeaveDI

// The model reads `@Dependency` values whose live values are WeaveDI modules, and one override
// reaches both worlds: `withDependencies` is seen by `@Injected`, `withInjectedValues` by
// `@Dependency`. Every test binds a container of its own (`Container.withShared`), so they run in
// parallel. In a test process swift-dependencies' context is `.test`; the keys have no test value,
// so they read the container there too.

/// A catalogue no module registers: a read that returns it came from the override.
let overrideCatalogue = [Quote(index: 0, text: "Tests are the first users of your code.", author: "A tester")]

/// Runs `body` with a container holding the quotes modules (serving `catalogue`) as
/// `Container.shared`.
@MainActor
func withQuotesModules(
    catalogue: [Quote] = Quote.catalogue, _ body: @MainActor () async throws -> Void
) async throws {
    let container = Container()
    try await QuotesDI.registerModules(into: container, catalogue: catalogue)
    try await Container.withShared(container) { () async throws -> Void in try await body() }
}

@MainActor
@Suite("Quotes: an @Observable model on @Dependency over WeaveDI modules")
struct QuotesModelTests {
    @Test("the live values are the modules' registrations")
    func liveValuesComeFromTheModules() async throws {
        try await withQuotesModules {
            let model = QuotesModel()
            await model.show(index: 1)
            #expect(model.quote == Quote.catalogue[1])
            #expect(model.failure == nil)
            // (`try` outside `#expect`: inside a closure, the macro's expansion loses the closure's `throws`.)
            let live = try QuotesClientKey.resolveLive()
            #expect(live is CatalogueQuotesClient)

            // The store is a singleton registration: a second model sees the first one's favourite.
            await model.toggleFavorite()
            let other = QuotesModel()
            await other.show(index: 0)
            #expect(other.favorites == [Quote.catalogue[1]])

            await model.show(index: Quote.catalogue.count)
            #expect(model.failure == "No quote at 4: the catalogue has 4 (0 to 3)")
        }
        // The registration decides: another catalogue registered, another quote read.
        try await withQuotesModules(catalogue: overrideCatalogue) {
            let model = QuotesModel()
            await model.showNext()
            #expect(model.quote == overrideCatalogue[0])
        }
        // No module, no value: the container's error, not a default.
        try await Container.withShared(Container()) { () async throws -> Void in
            #expect(throws: DIError.self) { try QuotesClientKey.resolveLive() }
        }
    }

    @Test("withDependencies is seen by the model's @Dependency and by @Injected, in its task and child tasks")
    func withDependenciesReachesBothWorlds() async throws {
        try await withQuotesModules {
            try await withDependencies {
                $0.quotes = CatalogueQuotesClient(overrideCatalogue)
            } operation: { @MainActor () async throws -> Void in
                let model = QuotesModel()
                await model.show(index: 0)
                #expect(model.quote == overrideCatalogue[0])
                let shared = try await QuoteSharer().shareText(index: 0)
                #expect(shared == "\(overrideCatalogue[0]) (shared from Quotes)")
                async let fromChild = QuoteSharer().shareText(index: 0)
                let sharedFromChild = try await fromChild
                #expect(sharedFromChild == "\(overrideCatalogue[0]) (shared from Quotes)")
            }
            // Over: the module's client again, in both worlds.
            let model = QuotesModel()
            await model.show(index: 0)
            #expect(model.quote == Quote.catalogue[0])
            let shared = try await QuoteSharer().shareText(index: 0)
            #expect(shared == "\(Quote.catalogue[0]) (shared from Quotes)")
        }
    }

    @Test("withInjectedValues is seen by the model's @Dependency")
    func withInjectedValuesReachesTheModel() async throws {
        try await withQuotesModules {
            let favorites = InMemoryFavoritesStore()
            _ = await favorites.toggle(overrideCatalogue[0])
            try await withInjectedValues {
                $0.quotes = CatalogueQuotesClient(overrideCatalogue)
                $0.favorites = favorites
            } operation: { @MainActor () async throws -> Void in
                let model = QuotesModel()
                await model.show(index: 0)
                #expect(model.quote == overrideCatalogue[0])
                #expect(model.favorites == [overrideCatalogue[0]])
                let shared = try await QuoteSharer().shareText(index: 0)
                #expect(shared == "\(overrideCatalogue[0]) (shared from Quotes)")
            }
            // Over: the modules' client and (empty) store again.
            let model = QuotesModel()
            await model.show(index: 0)
            #expect(model.quote == Quote.catalogue[0])
            #expect(model.favorites.isEmpty)
        }
    }

    @Test("the model is observable: loading a quote notifies its observers")
    func modelIsObservable() async throws {
        try await withQuotesModules {
            let model = QuotesModel()
            await confirmation("quote changed") { changed in
                withObservationTracking {
                    _ = model.quote
                } onChange: {
                    changed()
                }
                await model.show(index: 2)
            }
            #expect(model.quote == Quote.catalogue[2])
        }
    }
}
