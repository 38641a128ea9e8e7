import Observation
import WeaveDI

/// The quotes screen's model, written as a TCA app writes one: `@Observable`, on the main actor,
/// its dependencies read with `@Dependency`. Their values are the WeaveDI modules' registrations.
@MainActor
@Observable
public final class QuotesModel {
    /// The quote on screen, `nil` until one is loaded.
    public private(set) var quote: Quote?
    /// The favourites, as the store last returned them.
    public private(set) var favorites: [Quote] = []
    /// Why the last load failed, `nil` after a successful one.
    public private(set) var failure: String?

    // `@ObservationIgnored`: dependencies are not state the view observes (and `@Observable`
    // cannot track a property wrapper's storage).
    @ObservationIgnored @Dependency(\.quotes) private var quotes
    @ObservationIgnored @Dependency(\.favorites) private var favoritesStore

    /// A model showing nothing yet (made inside `withDependencies`, it keeps that override).
    public init() {}

    /// Shows the quote at `index` and the current favourites.
    public func show(index: Int) async {
        do {
            quote = try await quotes.quote(at: index)
            failure = nil
        } catch {
            failure = "\(error)"
        }
        favorites = await favoritesStore.all()
    }

    /// Shows the quote after the current one (the first when none is shown or after the last).
    public func showNext() async {
        do {
            let count = try await quotes.count()
            await show(index: quote.map { ($0.index + 1) % max(count, 1) } ?? 0)
        } catch {
            failure = "\(error)"
        }
    }

    /// Makes the quote on screen a favourite, or no longer one.
    public func toggleFavorite() async {
        guard let quote else { return }
        favorites = await favoritesStore.toggle(quote)
    }
}

/// A WeaveDI service reading the same client with `@Injected`: what one world overrides, the
/// other sees.
public struct QuoteSharer: Sendable {
    @Injected(\.quotes) private var quotes

    /// A sharer reading the client of the task that reads it.
    public init() {}

    /// The text shared for the quote at `index`.
    public func shareText(index: Int) async throws -> String {
        "\(try await quotes.quote(at: index)) (shared from Quotes)"
    }
}
