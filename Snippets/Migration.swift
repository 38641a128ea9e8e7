// The WeaveDI side of "Migrating to WeaveDI": code from Swinject, Factory, swift-dependencies and
// WeaveDI 3.x apps, rewritten. Declarations only, so that the documentation tests compile this
// same file (Tests/DocumentationTests/MigrationArticle.swift is a link to it) and run it
// (MigrationArticleTests.swift).
import WeaveDI

// snippet.hide
protocol HTTPClient: Sendable { func get(_ path: String) -> String }
final class URLSessionHTTPClient: HTTPClient {
    func get(_ path: String) -> String { "live \(path)" }
}
final class StubHTTPClient: HTTPClient {
    func get(_ path: String) -> String { "stub \(path)" }
}
protocol CatalogRepository: Sendable {
    var client: any HTTPClient { get }
    func product(_ id: String) -> String
}
final class RemoteCatalogRepository: CatalogRepository {
    let client: any HTTPClient
    init(client: any HTTPClient) { self.client = client }
    func product(_ id: String) -> String { client.get("/products/\(id)") }
}
final class ProductViewModel: Sendable {
    let id: String
    let catalog: any CatalogRepository
    init(id: String, catalog: any CatalogRepository) {
        self.id = id
        self.catalog = catalog
    }
}
final class RequestLog: Sendable {}
final class SessionCache: Sendable {}
final class ImageCache: Sendable {}
protocol Analytics: Sendable { func track(_ event: String) -> String }
struct ConsoleAnalytics: Analytics { func track(_ event: String) -> String { "console: \(event)" } }
struct NoOpAnalytics: Analytics { func track(_ event: String) -> String { "" } }
struct MockAnalytics: Analytics { func track(_ event: String) -> String { "mock: \(event)" } }
final class CheckoutTracker: Sendable {
    let analytics: any Analytics
    init(analytics: any Analytics) { self.analytics = analytics }
}
protocol FeedClient: Sendable { func latest() -> [String] }
struct LiveFeedClient: FeedClient { func latest() -> [String] { ["live"] } }
struct StubFeedClient: FeedClient {
    var items: [String]
    func latest() -> [String] { items }
}
protocol OrderHistory: Sendable { var source: String { get } }
struct RemoteOrderHistory: OrderHistory { var source: String { "remote" } }
struct EmptyOrderHistory: OrderHistory { var source: String { "empty" } }
// snippet.show

// MARK: - Swinject

// snippet.swinjectRegister
// `container.register(T.self) { r in … r.resolve(D.self)! }`: the factory takes no resolver; it
// resolves from the container it is registered in, and a missing dependency is an error naming it.
func registerCatalog(in container: WeaveDI.Container) {
    container.register((any HTTPClient).self, scope: .singleton) { URLSessionHTTPClient() }
    container.register((any CatalogRepository).self) {
        RemoteCatalogRepository(client: try container.resolveOrThrow((any HTTPClient).self))
    }
}

func catalog(from container: WeaveDI.Container) -> (any CatalogRepository)? {
    container.resolve((any CatalogRepository).self) // nil, as Swinject's, when nothing is registered
}
// snippet.end

// snippet.swinjectAssembly
// An Assembly becomes a ModuleFactory: each definition makes one registration, and declares
// what it depends on so that the manager can check it before registering anything.
struct CatalogModuleFactory: ModuleFactory, Sendable {
    var registerModule = RegisterModule()
    var definitions: [@Sendable () -> Module] = []

    init() {
        let registerModule = registerModule
        definitions.append {
            registerModule.makeModule((any HTTPClient).self, scope: .singleton) { URLSessionHTTPClient() }
        }
        definitions.append {
            registerModule.makeDependency((any CatalogRepository).self, dependencies: [(any HTTPClient).self]) {
                RemoteCatalogRepository(client: try UnifiedDI.resolveOrThrow((any HTTPClient).self))
            }
        }
    }
}

// `Assembler([CatalogAssembly(), …])` becomes a manager that registers every factory at launch.
func assembleApp() async throws {
    try await WeaveDI.Container.bootstrap { container in
        var manager = ModuleFactoryManager()
        manager.add(CatalogModuleFactory(), layer: .repository)
        try await manager.registerAll(to: container)
    }
}
// snippet.end

// snippet.swinjectArguments
// `register(T.self) { r, id in … }` and `resolve(T.self, argument: "42")`: the factory's
// parameters are the arguments, any number of them; a wrong count or type is a DIError.
func registerProductViewModel(in container: WeaveDI.Container) {
    container.register(ProductViewModel.self) { (id: String) in
        ProductViewModel(id: id, catalog: try container.resolveOrThrow((any CatalogRepository).self))
    }
}

func productViewModel(_ id: String, from container: WeaveDI.Container) throws -> ProductViewModel {
    try container.resolveOrThrow(ProductViewModel.self, argument: id)
}
// snippet.end

// snippet.swinjectScopes
// `.inObjectScope(…)` becomes the `scope:` of the registration.
func registerLifetimes(in container: WeaveDI.Container) {
    container.register(RequestLog.self, scope: .transient) { RequestLog() } // .transient
    container.register(SessionCache.self, scope: .singleton) { SessionCache() } // .container
    container.register(ImageCache.self, scope: .weak) { ImageCache() } // .weak
}
// snippet.end

// snippet.swinjectNamed
// `register(T.self, name: "…")` / `resolve(T.self, name: "…")`: the name comes first.
func registerClients(in container: WeaveDI.Container) {
    container.register("live", (any HTTPClient).self, scope: .singleton) { URLSessionHTTPClient() }
    container.register("stub", (any HTTPClient).self) { StubHTTPClient() }
}

func stubClient(from container: WeaveDI.Container) -> (any HTTPClient)? {
    container.resolve("stub", (any HTTPClient).self)
}
// snippet.end

// snippet.swinjectChild
// `Container(parent: app)`: the child resolves what it does not register from its parent, and
// the parent never sees the child's registrations.
func makeFeatureContainer(parent: WeaveDI.Container) -> WeaveDI.Container {
    let feature = WeaveDI.Container(parent: parent)
    feature.register((any Analytics).self) { MockAnalytics() }
    return feature
}
// snippet.end

// MARK: - Factory

// snippet.factoryKeys
// A key is a `static let` on WeaveDI's Container (not a computed property on a container
// instance); calling it resolves from `Container.shared`.
extension WeaveDI.Container {
    static let analytics = Factory<any Analytics> { ConsoleAnalytics() } // Factory's .unique
    static let imageCache = Factory(scope: .singleton) { ImageCache() } // .singleton / .cached
    static let sessionCache = Factory(scope: .weak) { SessionCache() } // .shared
    static let checkoutTracker = Factory { CheckoutTracker(analytics: WeaveDI.Container.analytics()) }
}

func trackCheckout() -> String {
    WeaveDI.Container.checkoutTracker().analytics.track("checkout")
}
// snippet.end

// snippet.factoryInjected
// `@Injected(\.analytics)` becomes `@Injected(Container.analytics)`: the key itself, read on
// every access, so a registration made after the owner was created is seen.
final class CheckoutScreen {
    @Injected(WeaveDI.Container.analytics) var analytics

    func confirm() -> String { analytics.track("confirmed") }
}
// snippet.end

// snippet.factoryRegisterReset
// `Container.shared.analytics.register { … }` and `.reset()`.
func withMockAnalytics<R>(_ body: () -> R) -> R {
    WeaveDI.Container.analytics.register { MockAnalytics() }
    defer { WeaveDI.Container.analytics.reset() } // the default applies again
    return body()
}
// `Container.shared.reset()`: every registration and cached instance is released.
func resetEverything() {
    WeaveDI.Container.shared.reset()
}
// snippet.end

// snippet.factoryParameters
// `ParameterFactory<String, ProductViewModel>` today: a registration whose factory takes the
// parameter, resolved with the argument (parameter keys are coming: see the table).
func registerParameterized(in container: WeaveDI.Container) {
    container.register(ProductViewModel.self) { (id: String) in
        ProductViewModel(id: id, catalog: RemoteCatalogRepository(client: URLSessionHTTPClient()))
    }
}

func productViewModelFromParameter(_ id: String, in container: WeaveDI.Container) -> ProductViewModel? {
    container.resolve(ProductViewModel.self, argument: id)
}
// snippet.end

// snippet.factoryDecorator
// `.decorator { instance in … }` becomes `decorate(_:)`, which returns what resolutions get:
// the instance itself (to observe it) or a wrapper around it.
final class LoggingAnalytics: Analytics {
    let inner: any Analytics
    init(inner: any Analytics) { self.inner = inner }
    func track(_ event: String) -> String { "logged " + inner.track(event) }
}

func decorateAnalytics(in container: WeaveDI.Container) -> DecoratorHandle {
    container.decorate((any Analytics).self) { inner in LoggingAnalytics(inner: inner) }
}
// snippet.end

// MARK: - swift-dependencies

// snippet.dependencyKey
// `DependencyKey` becomes `InjectedKey`, `DependencyValues` becomes `InjectedValues`.
enum FeedClientKey: InjectedKey {
    static let liveValue: any FeedClient = LiveFeedClient()
    static let testValue: any FeedClient = StubFeedClient(items: [])
}

extension InjectedValues {
    var feed: any FeedClient {
        get { self[FeedClientKey.self] }
        set { self[FeedClientKey.self] = newValue }
    }
}
// snippet.end

// snippet.dependencyRead
// `@Dependency(\.feed)` becomes `@Injected(\.feed)`.
struct FeedModel {
    @Injected(\.feed) var feed

    func titles() -> [String] { feed.latest() }
}
// snippet.end

// snippet.dependencyOverride
// `withDependencies { $0.feed = … } operation: { … }` becomes `withInjectedValues`: the same
// shape, the same reach (this task and the tasks it creates).
func titlesWithStubbedFeed() -> [String] {
    withInjectedValues {
        $0.feed = StubFeedClient(items: ["stubbed"])
    } operation: {
        FeedModel().titles()
    }
}
// snippet.end

// MARK: - WeaveDI 3.x

// snippet.legacyResolveOrDefault
// `UnifiedDI.resolve(X.self) ?? DefaultX()` in a key's value compiles unchanged.
enum OrderHistoryKey: InjectedKey {
    static var liveValue: any OrderHistory {
        UnifiedDI.resolve((any OrderHistory).self) ?? EmptyOrderHistory()
    }
}
// snippet.end

// snippet.legacyRegisterThenResolve
// `let r = UnifiedDI.register(X.self) { … }` returns a RegistrationHandle, not an instance:
// register first, then resolve.
func configureOrderHistory() -> any OrderHistory {
    UnifiedDI.register((any OrderHistory).self) { RemoteOrderHistory() }
    return UnifiedDI.resolve((any OrderHistory).self) ?? EmptyOrderHistory()
}
// snippet.end

// snippet.legacyMakeDependency
// A `makeDependency` definition, where a `@Sendable () -> Module` is expected, compiles.
extension RegisterModule {
    var orderHistoryModule: @Sendable () -> Module {
        makeDependency((any OrderHistory).self) { RemoteOrderHistory() }
    }
}
// snippet.end

// snippet.legacyBootstrapInTask
// `bootstrapInTask` from a synchronous app delegate compiles; wait for it before resolving.
func applicationDidFinishLaunching() {
    WeaveDI.Container.bootstrapInTask { container in
        container.register((any OrderHistory).self, scope: .singleton) { RemoteOrderHistory() }
    }
}

func firstScreenHistory() async throws -> any OrderHistory {
    try await WeaveDI.Container.waitForBootstrap() // the registrations above exist from here
    return try UnifiedDI.resolveOrThrow((any OrderHistory).self)
}
// snippet.end

// snippet.legacyInjectedKeyType
// An implementation that is its own `InjectedKey`, read with `@Injected(XImpl.self)`, compiles.
struct SystemClock: InjectedKey, Sendable {
    var label = "system"
    static var liveValue: SystemClock { SystemClock() }
    static var testValue: SystemClock { SystemClock(label: "test") }
}

struct ClockOwner {
    @Injected(SystemClock.self) var clock: SystemClock
}
// snippet.end

// snippet.legacyBuilder
// `WeaveDI.builder.register { A() as P }.register(Q.self) { B() }.configure()`
func registerWithoutBuilder() {
    UnifiedDI.registerMany {
        Registration((any Analytics).self) { ConsoleAnalytics() }
        Registration((any OrderHistory).self) { RemoteOrderHistory() }
    }
}
// snippet.end

// snippet.legacyBootstrap
// `extension AppWeaveDI.Container { func registerDefaultDependencies() async { await
// registerDependencies { c in … } } }`
extension WeaveDI.Container {
    static func registerDefaultDependencies() async throws {
        try await bootstrap { container in
            var manager = ModuleFactoryManager()
            manager.add(CatalogModuleFactory(), layer: .repository)
            try await manager.registerAll(to: container)
        }
    }
}
// snippet.end

// snippet.hide
final class UnitOfWork: Sendable {}
final class OrderStore: Sendable {
    let unitOfWork: UnitOfWork
    init(unitOfWork: UnitOfWork) { self.unitOfWork = unitOfWork }
}
final class InvoiceStore: Sendable {
    let unitOfWork: UnitOfWork
    init(unitOfWork: UnitOfWork) { self.unitOfWork = unitOfWork }
}
final class CheckoutService: Sendable {
    let orders: OrderStore
    let invoices: InvoiceStore
    init(orders: OrderStore, invoices: InvoiceStore) {
        self.orders = orders
        self.invoices = invoices
    }
}
protocol ProfileStore: Sendable {}
final class DiskProfileStore: ProfileStore {}
protocol ProfileService: Sendable { var store: any ProfileStore { get } }
final class ProfileServiceImpl: ProfileService {
    let store: any ProfileStore
    init(store: any ProfileStore) { self.store = store }
}
protocol Telemetry: Sendable { var kind: String { get } }
struct LiveTelemetry: Telemetry { var kind: String { "live" } }
struct SilentTelemetry: Telemetry { var kind: String { "silent" } }
struct PreviewTelemetry: Telemetry { var kind: String { "preview" } }
struct VerboseTelemetry: Telemetry { var kind: String { "verbose" } }
final class OrderDetailViewModel: Sendable {
    let orderID: String
    init(orderID: String) { self.orderID = orderID }
}
// snippet.show

// snippet.graphScope
// Swinject's default `.graph` (and Factory's `.graph`): one instance shared by every factory of
// one outermost resolution, a new one for the next.
func registerCheckout(in container: WeaveDI.Container) {
    container.register(UnitOfWork.self, scope: .graph) { UnitOfWork() }
    container.register(OrderStore.self) { OrderStore(unitOfWork: try container.resolveOrThrow(UnitOfWork.self)) }
    container.register(InvoiceStore.self) {
        InvoiceStore(unitOfWork: try container.resolveOrThrow(UnitOfWork.self))
    }
    container.register(CheckoutService.self) {
        CheckoutService(
            orders: try container.resolveOrThrow(OrderStore.self),
            invoices: try container.resolveOrThrow(InvoiceStore.self))
    }
}
// snippet.end

// snippet.autowiring
// SwinjectAutoregistration's `autoregister(_:initializer:)`: WeaveDI resolves each parameter of
// the initializer, so validate() and the graph know the dependencies without building anything.
func registerProfile(in container: WeaveDI.Container) {
    container.register((any ProfileStore).self, scope: .singleton) { DiskProfileStore() }
    container.register((any ProfileService).self, scope: .transient, initializer: ProfileServiceImpl.init)
}
// snippet.end

// snippet.hide
protocol ProfileCache: Sendable {}
final class MemoryProfileCache: ProfileCache {}
final class CachedProfileService: Sendable {
    let store: any ProfileStore
    let cache: (any ProfileCache)?
    init(store: any ProfileStore, cache: (any ProfileCache)?) {
        self.store = store
        self.cache = cache
    }
}
// snippet.show

// snippet.autowiringOptional
// As with SwinjectAutoregistration, an optional parameter is an optional dependency: the
// registered ProfileCache, or nil when none is registered. validate() does not count it missing.
func registerCachedProfile(in container: WeaveDI.Container) {
    container.register((any ProfileStore).self, scope: .singleton) { DiskProfileStore() }
    container.register(CachedProfileService.self, initializer: CachedProfileService.init(store:cache:))
}
// snippet.end

// snippet.contexts
// Factory's contexts, on a registration: chosen for tests, previews, debug builds or a launch
// argument, never in a release build unless asked for.
func registerTelemetry(in container: WeaveDI.Container) {
    container.register((any Telemetry).self) { LiveTelemetry() }
    container.register((any Telemetry).self, in: .test) { SilentTelemetry() }
    container.register((any Telemetry).self, in: .preview) { PreviewTelemetry() }
    container.register((any Telemetry).self, in: .argument("verbose-telemetry")) { VerboseTelemetry() }
}
// snippet.end

// snippet.factoryContexts
// The same on a Factory key: `.onTest`, `.onPreview`, `.onDebug`, `.onArg`.
extension WeaveDI.Container {
    static let telemetry = Factory<any Telemetry> { LiveTelemetry() }
}

func configureTelemetryContexts() {
    WeaveDI.Container.telemetry.onTest { SilentTelemetry() }
    WeaveDI.Container.telemetry.onPreview { PreviewTelemetry() }
    WeaveDI.Container.telemetry.onArg("verbose-telemetry") { VerboseTelemetry() }
}
// snippet.end

// snippet.parameterFactory
// Factory's `ParameterFactory`: a key whose factory takes the parameter.
extension WeaveDI.Container {
    static let orderDetail = ParameterFactory<String, OrderDetailViewModel> { id in
        OrderDetailViewModel(orderID: id)
    }
}

func orderDetail(_ id: String) -> OrderDetailViewModel {
    WeaveDI.Container.orderDetail(id)
}
// snippet.end
