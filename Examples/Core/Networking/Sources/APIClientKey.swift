import WeaveDI

/// The `InjectedValues` entry for the API client: any module that imports Networking can write
/// `@Injected(\.apiClient) var apiClient`, and a test can swap it with `withInjectedValues`.
public struct APIClientKey: InjectedKey {
    /// The app's client: the in-process shop backend.
    public static let liveValue: any APIClient = InProcessAPIClient(backend: .standard)
    /// Under tests: a client of its own on the same catalog, so the app's recorded requests and the
    /// tests' stay apart.
    public static let testValue: any APIClient = InProcessAPIClient(backend: .standard)
}

extension InjectedValues {
    /// The client features talk to the backend with.
    public var apiClient: any APIClient {
        get { self[APIClientKey.self] }
        set { self[APIClientKey.self] = newValue }
    }
}
