import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

// Runs the WeaveDI side of "Migrating to WeaveDI": Snippets/Migration.swift, compiled into this
// target as MigrationArticle.swift.

/// A key with the custom scope the Factory table maps `.scope(.session)` to.
enum MigrationTestKeys {
    final class Cart: Sendable {}
    static let cart = Factory(scope: .session) { Cart() }
}

/// Whether two values are the same object.
private func identical(_ lhs: Any, _ rhs: Any) -> Bool {
    ObjectIdentifier(lhs as AnyObject) == ObjectIdentifier(rhs as AnyObject)
}

@Suite(
    "Migrating to WeaveDI: the article's code does what its Swinject, Factory and swift-dependencies code did",
    .capturesLog)
struct MigrationArticleTests {
    // MARK: Swinject

    @Test("a registration resolves its dependency from its container: one singleton client, a new repository each time")
    func swinjectRegister() throws {
        let container = WeaveDI.Container()
        #expect(catalog(from: container) == nil)
        registerCatalog(in: container)
        let first = try #require(catalog(from: container))
        let second = try #require(catalog(from: container))
        #expect(first.product("7") == "live /products/7")
        #expect(identical(first.client, second.client))
        #expect(!identical(first, second))
    }

    @Test("where Swinject's factory force-unwraps, a missing dependency is a DIError naming it")
    func swinjectMissingDependency() {
        let container = WeaveDI.Container()
        container.register((any CatalogRepository).self) {
            RemoteCatalogRepository(client: try container.resolveOrThrow((any HTTPClient).self))
        }
        #expect(catalog(from: container) == nil)
        let error = #expect(throws: DIError.self) { try container.resolveOrThrow((any CatalogRepository).self) }
        #expect(error.map { String(describing: $0) }?.contains("HTTPClient") == true)
    }

    @Test("the migrated assembly resolves what the Swinject assembly did")
    func swinjectAssembly() async throws {
        try await WeaveDI.Container.withShared(WeaveDI.Container()) {
            try await assembleApp()
            let first = try UnifiedDI.resolveOrThrow((any CatalogRepository).self)
            let second = try UnifiedDI.resolveOrThrow((any CatalogRepository).self)
            #expect(first is RemoteCatalogRepository)
            #expect(first.client is URLSessionHTTPClient)
            #expect(identical(first.client, second.client)) // `.inObjectScope(.container)`
            #expect(!identical(first, second)) // a new repository per resolution
        }
    }

    @Test("the manager checks declared dependencies before registering anything")
    func swinjectAssemblyChecksDependencies() async {
        var factory = CatalogModuleFactory()
        factory.definitions.removeFirst() // the client's definition
        var manager = ModuleFactoryManager()
        manager.add(factory, layer: .repository)
        let container = WeaveDI.Container()
        await #expect(throws: ModuleFactoryError.self) { try await manager.registerAll(to: container) }
        #expect(container.resolve((any CatalogRepository).self) == nil)
    }

    @Test("arguments: resolve(_:argument:) builds with the value; a wrong type is a DIError")
    func swinjectArguments() throws {
        let container = WeaveDI.Container()
        registerCatalog(in: container)
        registerProductViewModel(in: container)
        let model = try productViewModel("42", from: container)
        #expect(model.id == "42")
        #expect(model.catalog.product(model.id) == "live /products/42")
        #expect(throws: DIError.self) { try container.resolveOrThrow(ProductViewModel.self, argument: 42) }
    }

    @Test("object scopes: transient, container (singleton) and weak")
    func swinjectScopes() throws {
        let container = WeaveDI.Container()
        registerLifetimes(in: container)
        let logs = try (container.resolveOrThrow(RequestLog.self), container.resolveOrThrow(RequestLog.self))
        #expect(logs.0 !== logs.1)
        let caches = try (container.resolveOrThrow(SessionCache.self), container.resolveOrThrow(SessionCache.self))
        #expect(caches.0 === caches.1)

        let image = try container.resolveOrThrow(ImageCache.self)
        #expect(try container.resolveOrThrow(ImageCache.self) === image) // kept while someone holds it
    }

    @Test("a weak instance is released when nothing holds it")
    func swinjectWeakReleased() throws {
        let container = WeaveDI.Container()
        registerLifetimes(in: container)
        weak var released: ImageCache?
        do {
            let image = try container.resolveOrThrow(ImageCache.self)
            released = image
            #expect(released != nil)
        }
        #expect(released == nil)
    }

    @Test("named registrations: the name comes first, each name its own registration")
    func swinjectNamed() {
        let container = WeaveDI.Container()
        registerClients(in: container)
        #expect(stubClient(from: container) is StubHTTPClient)
        #expect(container.resolve("live", (any HTTPClient).self) is URLSessionHTTPClient)
        #expect(container.resolve((any HTTPClient).self) == nil)
    }

    @Test("child containers: the child's own registrations, the parent's singletons shared, the parent unaffected")
    func swinjectChild() throws {
        let parent = WeaveDI.Container()
        registerCatalog(in: parent)
        let feature = makeFeatureContainer(parent: parent)
        #expect(feature.resolve((any Analytics).self) is MockAnalytics)
        #expect(parent.resolve((any Analytics).self) == nil)
        let fromChild = try feature.resolveOrThrow((any HTTPClient).self)
        let fromParent = try parent.resolveOrThrow((any HTTPClient).self)
        #expect(identical(fromChild, fromParent))
    }

    // MARK: Factory

    @Test("keys resolve their default with the key's scope; a key's default resolves another key")
    func factoryKeys() {
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            #expect(trackCheckout() == "console: checkout")
            #expect(WeaveDI.Container.imageCache() === WeaveDI.Container.imageCache())
            #expect(WeaveDI.Container.checkoutTracker() !== WeaveDI.Container.checkoutTracker())
            let session = WeaveDI.Container.sessionCache()
            #expect(WeaveDI.Container.sessionCache() === session)
        }
    }

    @Test("a singleton key's instance is released by the container's reset (Factory's .cached and reset(.scope))")
    func factorySingletonKeyReset() {
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            let first = WeaveDI.Container.imageCache()
            WeaveDI.Container.shared.reset()
            #expect(WeaveDI.Container.imageCache() !== first)
        }
    }

    @Test("a key with a custom scope (Factory's .scope(.session)): one instance per scope instance")
    func factorySessionKey() {
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            let container = WeaveDI.Container.shared
            let (first, again) = container.withScope(.session) {
                (MigrationTestKeys.cart(), MigrationTestKeys.cart())
            }
            let next = container.withScope(.session) { MigrationTestKeys.cart() }
            #expect(first === again)
            #expect(first !== next)
        }
    }

    @Test("@Injected(key) reads the key on every access; register replaces the default, reset restores it")
    func factoryInjectedRegisterReset() {
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            let screen = CheckoutScreen()
            #expect(screen.confirm() == "console: confirmed")
            #expect(withMockAnalytics { screen.confirm() } == "mock: confirmed")
            #expect(screen.confirm() == "console: confirmed")

            WeaveDI.Container.analytics.register { MockAnalytics() }
            WeaveDI.Container.shared.register(RequestLog.self) { RequestLog() }
            resetEverything()
            #expect(screen.confirm() == "console: confirmed")
            #expect(WeaveDI.Container.shared.resolve(RequestLog.self) == nil)
        }
    }

    @Test("parameters: the argument reaches the factory")
    func factoryParameters() {
        let container = WeaveDI.Container()
        registerParameterized(in: container)
        #expect(productViewModelFromParameter("9", in: container)?.id == "9")
    }

    @Test("a decorator wraps every resolution until it is removed")
    func factoryDecorator() {
        let container = WeaveDI.Container()
        container.register((any Analytics).self) { ConsoleAnalytics() }
        let handle = decorateAnalytics(in: container)
        #expect(container.resolve((any Analytics).self)?.track("a") == "logged console: a")
        handle.remove()
        #expect(container.resolve((any Analytics).self)?.track("a") == "console: a")
    }

    // MARK: swift-dependencies

    @Test("an InjectedKey: the test value under a test runner, the live value otherwise, an override in its scope")
    func dependencyKey() async {
        #expect(FeedModel().titles() == [])
        #expect(FeedClientKey.liveValue.latest() == ["live"])
        #expect(titlesWithStubbedFeed() == ["stubbed"])
        #expect(FeedModel().titles() == [])
        // The override reaches the tasks the operation creates.
        let fromChildTask = await withInjectedValues {
            $0.feed = StubFeedClient(items: ["child"])
        } operation: {
            await Task { FeedModel().titles() }.value
        }
        #expect(fromChildTask == ["child"])
    }

    // MARK: WeaveDI 3.x

    @Test("resolve ?? default in a key: the default without a registration, the registration with one")
    func v3ResolveOrDefault() {
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            #expect(OrderHistoryKey.liveValue.source == "empty")
            #expect(configureOrderHistory().source == "remote")
            #expect(OrderHistoryKey.liveValue.source == "remote")
        }
    }

    @Test("makeDependency as a definition")
    func v3MakeDependency() {
        let container = WeaveDI.Container()
        let definitions: [@Sendable () -> Module] = [RegisterModule().orderHistoryModule]
        for definition in definitions { container.register(definition()) }
        #expect(container.resolve((any OrderHistory).self)?.source == "remote")
    }

    @Test("bootstrapInTask from a synchronous call; a resolution after waitForBootstrap sees it")
    func v3BootstrapInTask() async throws {
        try await WeaveDI.Container.withShared(WeaveDI.Container()) {
            applicationDidFinishLaunching()
            let history = try await firstScreenHistory()
            #expect(history.source == "remote")
        }
    }

    @Test("@Injected(XImpl.self) reads a type that is its own key")
    func v3InjectedKeyType() {
        #expect(ClockOwner().clock.label == "test")
        withInjectedValues {
            $0[SystemClock.self] = SystemClock(label: "mock")
        } operation: {
            #expect(ClockOwner().clock.label == "mock")
        }
    }

    @Test("registerMany instead of the builder; bootstrap instead of AppWeaveDI.registerDependencies")
    func v3BuilderAndBootstrap() async throws {
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            registerWithoutBuilder()
            #expect(UnifiedDI.resolve((any Analytics).self) is ConsoleAnalytics)
            #expect(UnifiedDI.resolve((any OrderHistory).self) is RemoteOrderHistory)
        }
        try await WeaveDI.Container.withShared(WeaveDI.Container()) {
            try await WeaveDI.Container.registerDefaultDependencies()
            #expect(UnifiedDI.resolve((any CatalogRepository).self) is RemoteCatalogRepository)
        }
    }
}

@Suite("Migrating to WeaveDI: the graph scope, autowiring, contexts and parameter keys", .capturesLog)
struct MigrationNewFeatureRowsTests {
    @Test("graph: one unit of work per outermost resolution")
    func graphScope() throws {
        let container = WeaveDI.Container()
        registerCheckout(in: container)
        let first = try container.resolveOrThrow(CheckoutService.self)
        let second = try container.resolveOrThrow(CheckoutService.self)
        #expect(first.orders.unitOfWork === first.invoices.unitOfWork)
        #expect(first.orders.unitOfWork !== second.orders.unitOfWork)
    }

    @Test("autowiring: the initializer's parameters are resolved")
    func autowiring() throws {
        let container = WeaveDI.Container()
        registerProfile(in: container)
        let first = try container.resolveOrThrow((any ProfileService).self)
        let second = try container.resolveOrThrow((any ProfileService).self)
        #expect(first.store is DiskProfileStore)
        #expect(identical(first.store, second.store))
    }

    @Test("autowiring: an optional parameter is nil until its type is registered")
    func autowiringOptional() throws {
        let container = WeaveDI.Container()
        registerCachedProfile(in: container)
        #expect(try container.resolveOrThrow(CachedProfileService.self).cache == nil)
        #expect(container.validate().isValid)
        container.register((any ProfileCache).self) { MemoryProfileCache() }
        #expect(try container.resolveOrThrow(CachedProfileService.self).cache is MemoryProfileCache)
    }

    @Test("contexts: under a test runner the .test registration and .onTest are chosen")
    func contexts() async {
        let container = WeaveDI.Container()
        registerTelemetry(in: container)
        #expect(container.resolve((any Telemetry).self)?.kind == "silent")
        WeaveDI.Container.withShared(WeaveDI.Container()) {
            configureTelemetryContexts()
            #expect(WeaveDI.Container.telemetry().kind == "silent")
        }
    }

    @Test("a parameter key passes its parameter")
    func parameterFactory() {
        #expect(orderDetail("42").orderID == "42")
    }
}
