// Runtime arguments, multi-binding, decorators and the graph scope: the features Swinject,
// Factory and Knit users reach for, on the one container.
import WeaveDI

// snippet.hide
final class UserViewModel: Sendable {
    let id: String
    init(id: String) { self.id = id }
}
final class ReportBuilder: Sendable {
    init(title: String, page: Int, draft: Bool) {}
}
final class Avatar: Sendable {
    init(url: String) async {}
}
struct PageRequest: Hashable, Sendable {
    let id: String
    let page: Int
}
final class PagedList: Sendable {
    init(id: String, page: Int) {}
}
protocol Plugin: Sendable { var name: String { get } }
struct AnalyticsPlugin: Plugin { let name = "analytics" }
struct CrashPlugin: Plugin { let name = "crash" }
final class FeatureFlagsPlugin: Plugin {
    let name = "flags"
    init() {}
}
protocol OrderService: Sendable { func place() }
final class RealOrderService: OrderService { func place() {} }
final class LoggingOrderService: OrderService {
    let decorated: any OrderService
    init(decorated: any OrderService) { self.decorated = decorated }
    func place() { decorated.place() }
}
final class MetricsOrderService: OrderService {
    let decorated: any OrderService
    init(decorated: any OrderService) { self.decorated = decorated }
    func place() { decorated.place() }
}
// snippet.show

// snippet.arguments
let container = WeaveDI.Container()
// The factory's parameters are the arguments: annotate their types.
container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
container.register(ReportBuilder.self) { (title: String, page: Int, draft: Bool) in
    ReportBuilder(title: title, page: page, draft: draft)
}

let model = container.resolve(UserViewModel.self, argument: "42") // UserViewModel?
let report = try container.resolveOrThrow(ReportBuilder.self, arguments: "Q3", 12, false)
// snippet.end

// snippet.mismatch
do {
    _ = try container.resolveOrThrow(UserViewModel.self, argument: 42)
} catch {
    // UserViewModel is registered with a factory taking (Swift.String), and was resolved
    // with (Swift.Int). Nothing was built. …
    print(error)
}
// snippet.end

// snippet.argumentScopes
// One instance per argument value: "42" and "42" share one, "7" gets its own.
container.register("cached", UserViewModel.self, scope: .singleton) { (id: String) in UserViewModel(id: id) }
let first = container.resolve("cached", UserViewModel.self, argument: "42")
let again = container.resolve("cached", UserViewModel.self, argument: "42")
print(first === again) // true

// Async factories take arguments too.
container.registerAsync(Avatar.self, scope: .weak) { (url: String) async in await Avatar(url: url) }
let avatar = try await container.resolveAsync(Avatar.self, argument: "https://example.com/a.png")
// snippet.end

// snippet.parameterKeys
extension WeaveDI.Container {
    // A key whose default takes a parameter (Factory's `ParameterFactory`).
    static let userVM = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id) }
    // Several values: a tuple (transient only: tuples are not Hashable)…
    static let pagedList = ParameterFactory<(String, Int), PagedList> { id, page in PagedList(id: id, page: page) }
    // …or, for a shared lifetime, a Hashable struct: one instance per value.
    static let cachedList = ParameterFactory<PageRequest, PagedList>(scope: .singleton) { request in
        PagedList(id: request.id, page: request.page)
    }
}

let userModel = WeaveDI.Container.userVM("42") // from Container.shared
let page = WeaveDI.Container.pagedList(("42", 2))
let cached = try WeaveDI.Container.cachedList.resolveOrThrow(PageRequest(id: "42", page: 1), in: container)

// Replace the default in one container (a test's, a preview's), and put it back.
WeaveDI.Container.userVM.register(in: container) { id in UserViewModel(id: "preview-\(id)") }
WeaveDI.Container.userVM.reset(in: container)
// snippet.end

// snippet.injectedParameter
final class ProfileScreen {
    // Resolved on every read, with the parameter the screen was made for.
    @Injected var model: UserViewModel
    init(userID: String) { _model = Injected(WeaveDI.Container.userVM, userID) }
}

struct FeaturedProfile {
    @Injected(WeaveDI.Container.userVM, "featured") var model
}
// snippet.end

// snippet.multibinding
// Each module contributes; each contribution keeps its own lifetime.
container.register(into: Plugin.self) { AnalyticsPlugin() }
container.register(into: Plugin.self, name: "crash", scope: .singleton) { CrashPlugin() }
let flags = container.register(into: Plugin.self) { FeatureFlagsPlugin() }

let plugins = container.resolveAll(Plugin.self) // analytics, crash, flags: registration order
flags.unregister() // removes that contribution only
// snippet.end

// snippet.childContributions
let screen = WeaveDI.Container(parent: container)
screen.register(into: Plugin.self) { FeatureFlagsPlugin() }
print(screen.resolveAll(Plugin.self).map(\.name)) // ["analytics", "crash", "flags"]: the parent's first
// snippet.end

// snippet.decorate
container.register(OrderService.self, scope: .singleton) { RealOrderService() }
container.decorate(OrderService.self) { inner in LoggingOrderService(decorated: inner) }
// A module can add its own; decorators compose in the order they were added.
container.decorate(OrderService.self) { inner in MetricsOrderService(decorated: inner) }

// MetricsOrderService(LoggingOrderService(RealOrderService)), built and decorated once.
let orders = try container.resolveOrThrow(OrderService.self)
// snippet.end

// snippet.hide
final class Session: Sendable {}
final class ProfileLoader: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}
final class FeedLoader: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}
final class HomeViewModel: Sendable {
    let profile: ProfileLoader
    let feed: FeedLoader
    init(profile: ProfileLoader, feed: FeedLoader) {
        self.profile = profile
        self.feed = feed
    }
}
// snippet.show

// snippet.graph
// One Session per outermost resolution: ProfileLoader and FeedLoader share it.
container.register(Session.self, scope: .graph) { Session() }
container.register(ProfileLoader.self) { ProfileLoader(session: try container.resolveOrThrow(Session.self)) }
container.registerAsync(FeedLoader.self) { FeedLoader(session: try await container.resolveAsync(Session.self)) }
container.registerAsync(HomeViewModel.self) {
    // Child tasks of one resolution share its graph too.
    async let feed = container.resolveAsync(FeedLoader.self)
    let profile = try container.resolveOrThrow(ProfileLoader.self)
    return HomeViewModel(profile: profile, feed: try await feed)
}

let home = try await container.resolveAsync(HomeViewModel.self)
print(home.profile.session === home.feed.session) // true: one graph
let next = try await container.resolveAsync(HomeViewModel.self)
print(next.profile.session === home.profile.session) // false: the next resolution's graph
// snippet.end

// snippet.hide
_ = (model, report, avatar, plugins, orders, userModel, page, cached)
// snippet.show

// snippet.hide
protocol APIClient: Sendable {}
final class URLSessionAPIClient: APIClient { init() {} }
protocol UserStore: Sendable {}
final class DiskUserStore: UserStore { init(api: any APIClient) {} }
protocol UserService: Sendable {}
final class UserServiceImpl: UserService {
    init(api: any APIClient, store: any UserStore) {}
    init(api: any APIClient) {}
}
final class SessionDatabase: Sendable {
    init(store: any UserStore) async throws {}
}
final class AccountScreen: Sendable {
    init(users: any UserService, api: any APIClient) {}
}
// snippet.show

// snippet.autowire
let app = WeaveDI.Container()
app.register(APIClient.self, scope: .singleton, initializer: URLSessionAPIClient.init)
app.register(UserStore.self, initializer: DiskUserStore.init)
// A type with several initializers: name the one to use.
app.register(UserService.self, initializer: UserServiceImpl.init(api:store:))

// Resolves as `UserServiceImpl(api: resolve(), store: resolve())` would.
let users = try app.resolveOrThrow(UserService.self)
// snippet.end

// snippet.autowireInspect
// Known from the registration alone: nothing is built to learn them.
print(app.declaredDependencies(of: UserService.self)!) // APIClient, UserStore (module-qualified)
print(app.dependencyGraph())
// UserService (transient)
// ├── APIClient (singleton)
// └── UserStore (transient)
//     └── APIClient (singleton)

app.register(AccountScreen.self, initializer: AccountScreen.init(users:api:))
let checked = app.validate()
print(checked.missingDependencies.isEmpty) // true
// snippet.end

// snippet.autowireAsync
// An async initializer; its parameters may be async registrations too.
app.registerAsync(SessionDatabase.self, scope: .singleton, initializer: SessionDatabase.init(store:))
let database = try await app.resolveAsync(SessionDatabase.self)
// snippet.end

// snippet.hide
protocol AuditLog: Sendable {}
struct FileAuditLog: AuditLog {}
final class CheckoutFlow: Sendable {
    let audit: (any AuditLog)?
    init(users: any UserService, audit: (any AuditLog)?) { self.audit = audit }
}
// snippet.show

// snippet.autowireOptional
// `audit: AuditLog?` is an optional dependency: nil while no AuditLog is registered…
app.register(CheckoutFlow.self, initializer: CheckoutFlow.init(users:audit:))
let unaudited = try app.resolveOrThrow(CheckoutFlow.self)
print(unaudited.audit == nil) // true
print(app.declaredDependencies(of: CheckoutFlow.self)!) // [PeerFeatures.UserService, PeerFeatures.AuditLog?]
print(app.validate().missingDependencies.isEmpty) // true: a missing optional parameter is no problem

// …and the registered one as soon as there is one (here, or in a parent container).
app.register(AuditLog.self) { FileAuditLog() }
let audited = try app.resolveOrThrow(CheckoutFlow.self)
print(audited.audit is FileAuditLog) // true
// snippet.end

// snippet.hide
protocol WeatherClient: Sendable { func fetch() -> String }
struct LiveWeatherClient: WeatherClient { func fetch() -> String { "live" } }
struct MockWeatherClient: WeatherClient { func fetch() -> String { "mock" } }
struct PreviewWeatherClient: WeatherClient { func fetch() -> String { "preview" } }
protocol Analytics: Sendable { func track(_ event: String) }
struct LiveAnalytics: Analytics { func track(_ event: String) {} }
struct NoAnalytics: Analytics { func track(_ event: String) {} }
// snippet.show

// snippet.contexts
container.register(WeatherClient.self, scope: .singleton) { LiveWeatherClient() }
// Each replaces the registration above while its context is active.
container.register(WeatherClient.self, scope: .singleton, in: .test) { MockWeatherClient() }
container.register(WeatherClient.self, in: .preview) { PreviewWeatherClient() }
container.register(WeatherClient.self, in: .argument("-mockWeather")) { MockWeatherClient() }

// Under `swift test` (a debug build): MockWeatherClient, its own singleton.
let client = try container.resolveOrThrow(WeatherClient.self)
// snippet.end

// snippet.factoryContexts
extension WeaveDI.Container {
    static let analytics = Factory<any Analytics>(scope: .singleton) { LiveAnalytics() }
}

WeaveDI.Container.analytics
    .onTest { NoAnalytics() }
    .onPreview { NoAnalytics() }
    .onArg("-noAnalytics") { NoAnalytics() }
// snippet.end

// snippet.forceContexts
// The live registration, in a test process: only this task (and the tasks it creates) sees it.
let live = try WeaveDI.Container.withContexts(disabling: [.test]) {
    try container.resolveOrThrow(WeatherClient.self)
}
// Exactly the preview context, whatever the process is.
let preview = try WeaveDI.Container.withContexts([.preview], exclusively: true) {
    try container.resolveOrThrow(WeatherClient.self)
}
// snippet.end

// snippet.hide
struct Forecast: Sendable {
    let city: String
    let client: any WeatherClient
}
protocol WeatherService: Sendable {}
struct LiveWeatherService: WeatherService { init(client: any WeatherClient) {} }
struct OfflineWeatherService: WeatherService {}
// snippet.show

// snippet.contextForms
// A factory taking arguments…
container.register(Forecast.self) { (city: String) in Forecast(city: city, client: LiveWeatherClient()) }
container.register(Forecast.self, in: .test) { (city: String) in Forecast(city: city, client: MockWeatherClient()) }
// …an autowired initializer…
container.register(WeatherService.self, initializer: LiveWeatherService.init(client:))
container.register(WeatherService.self, in: .preview, initializer: OfflineWeatherService.init)
// …and a multi-binding contribution: under its name, it takes the plain one's place.
container.register(into: Analytics.self, name: "main") { LiveAnalytics() }
container.register(into: Analytics.self, name: "main", in: .test) { NoAnalytics() }

// Under `swift test` (a debug build): the .test variants.
let forecast = try container.resolveOrThrow(Forecast.self, argument: "Oslo")
let trackers = container.resolveAll(Analytics.self) // [NoAnalytics]
// snippet.end

// snippet.declareContexts
// A release build that should use a context: declare it for the whole process…
WeaveDI.Container.declaredContexts = [.custom("demo")]
// …or let detection count as it does in a debug build (`swift test -c release`).
WeaveDI.Container.detectsContexts = true
// snippet.end

// snippet.hide
_ = (users, database, client, live, preview, forecast, trackers)
// snippet.show
