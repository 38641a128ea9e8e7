// Bootstraps the container with the quotes modules, then drives the `@Observable` model, whose
// `@Dependency` values are those modules' registrations.
//
//   swift run --package-path Examples/Dependencies QuotesApp
import QuotesFeature
import WeaveDI

var registered = 0
try await WeaveDI.Container.bootstrap { container in
    registered = try await QuotesDI.registerModules(into: container).totalModules
}
print("Registered \(registered) modules")

let model = QuotesModel()
let count = try await QuotesClientKey.resolveLive().count()
for _ in 0..<count {
    await model.showNext()
    if let quote = model.quote { print("\(quote.index + 1). \(quote)") }
}
await model.show(index: 2)
await model.toggleFavorite()
await model.show(index: 0)
await model.toggleFavorite()
print("Favourites: \(model.favorites.map(\.author).joined(separator: ", "))")
await model.show(index: count)
print("Out of range: \(model.failure ?? "no error")")
print(try await QuoteSharer().shareText(index: 3))
