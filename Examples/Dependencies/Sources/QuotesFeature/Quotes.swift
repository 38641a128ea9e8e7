/// A quotation and where it sits in its client's catalogue.
public struct Quote: Sendable, Hashable, CustomStringConvertible {
    /// Its position in the catalogue it came from (0 for the first).
    public let index: Int
    /// The words quoted.
    public let text: String
    /// Who said or wrote them.
    public let author: String

    /// A quote at `index` of its catalogue.
    public init(index: Int, text: String, author: String) {
        self.index = index
        self.text = text
        self.author = author
    }

    /// The quote as it is shown and shared: “text” — author.
    public var description: String { "“\(text)” — \(author)" }
}

extension Quote {
    /// The catalogue the app ships with.
    public static let catalogue: [Quote] = [
        Quote(index: 0, text: "Simplicity is prerequisite for reliability.", author: "Edsger W. Dijkstra"),
        Quote(
            index: 1,
            text: "Programs must be written for people to read, and only incidentally for machines to execute.",
            author: "Harold Abelson and Gerald Jay Sussman"),
        Quote(index: 2, text: "Premature optimization is the root of all evil.", author: "Donald Knuth"),
        Quote(index: 3, text: "Make it work, make it right, make it fast.", author: "Kent Beck"),
    ]
}

/// Why a quote could not be read.
public enum QuotesError: Error, Equatable, CustomStringConvertible {
    /// `index` is outside the catalogue, which has `count` quotes.
    case noQuote(index: Int, count: Int)

    /// The index asked for and the range there is.
    public var description: String {
        switch self {
        case .noQuote(let index, let count):
            return "No quote at \(index): the catalogue has \(count) (0 to \(count - 1))"
        }
    }
}

/// Where quotes come from.
public protocol QuotesClient: Sendable {
    /// How many quotes there are; every index below it has one.
    func count() async throws -> Int
    /// The quote at `index`, or ``QuotesError/noQuote(index:count:)`` outside the catalogue.
    func quote(at index: Int) async throws -> Quote
}

/// Quotes from a catalogue held in memory (``Quote/catalogue`` in the app).
public struct CatalogueQuotesClient: QuotesClient {
    /// The quotes, renumbered from 0 in this order.
    public let quotes: [Quote]

    /// A client serving `quotes`, whatever their `index` was.
    public init(_ quotes: [Quote]) {
        self.quotes = quotes.enumerated().map {
            Quote(index: $0.offset, text: $0.element.text, author: $0.element.author)
        }
    }

    /// The catalogue's size.
    public func count() async throws -> Int { quotes.count }

    /// The quote at `index`, or ``QuotesError/noQuote(index:count:)``.
    public func quote(at index: Int) async throws -> Quote {
        guard quotes.indices.contains(index) else { throw QuotesError.noQuote(index: index, count: quotes.count) }
        return quotes[index]
    }
}

/// The user's favourite quotes.
public protocol FavoritesStore: Sendable {
    /// Adds `quote` if it is not a favourite, removes it if it is; returns the favourites after.
    func toggle(_ quote: Quote) async -> [Quote]
    /// The favourites, in the order they were added.
    func all() async -> [Quote]
}

/// Favourites kept in memory for as long as the store lives (registered as a singleton, so every
/// model shares them).
public actor InMemoryFavoritesStore: FavoritesStore {
    private var favorites: [Quote] = []

    /// An empty store.
    public init() {}

    /// See ``FavoritesStore/toggle(_:)``.
    public func toggle(_ quote: Quote) -> [Quote] {
        if let position = favorites.firstIndex(of: quote) {
            favorites.remove(at: position)
        } else {
            favorites.append(quote)
        }
        return favorites
    }

    /// See ``FavoritesStore/all()``.
    public func all() -> [Quote] { favorites }
}
