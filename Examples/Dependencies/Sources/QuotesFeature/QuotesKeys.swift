import WeaveDI

// The bridged keys: each is readable as `@Dependency(\.x)` and as `@Injected(\.x)`, its live value
// being the container's registration (made by ``QuotesModuleFactory``). No fallback: a missing
// module is a bug, reported with the container's message. No test value: tests register the
// modules (or override) themselves.

/// The registration of `any QuotesClient`.
public enum QuotesClientKey: BridgedDependencyKey {
    /// The unnamed registration, no fallback, test or preview value.
    public static let bridge = DependencyBridge<any QuotesClient>()
}

/// The registration of `any FavoritesStore`.
public enum FavoritesStoreKey: BridgedDependencyKey {
    /// The unnamed registration, no fallback, test or preview value.
    public static let bridge = DependencyBridge<any FavoritesStore>()
}

extension DependencyValues {
    /// The quotes client: ``QuotesClientKey``.
    public var quotes: any QuotesClient {
        get { self[bridged: QuotesClientKey.self] }
        set { self[bridged: QuotesClientKey.self] = newValue }
    }

    /// The favourites store: ``FavoritesStoreKey``.
    public var favorites: any FavoritesStore {
        get { self[bridged: FavoritesStoreKey.self] }
        set { self[bridged: FavoritesStoreKey.self] = newValue }
    }
}

extension InjectedValues {
    /// The quotes client: ``QuotesClientKey``.
    public var quotes: any QuotesClient {
        get { self[bridged: QuotesClientKey.self] }
        set { self[bridged: QuotesClientKey.self] = newValue }
    }

    /// The favourites store: ``FavoritesStoreKey``.
    public var favorites: any FavoritesStore {
        get { self[bridged: FavoritesStoreKey.self] }
        set { self[bridged: FavoritesStoreKey.self] = newValue }
    }
}
