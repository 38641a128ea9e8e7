// Runtime arguments, multi-binding and decorators: the features Swinject, Factory and Knit users
// reach for, on the one container.
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
protocol APIClient: Sendable { func fetch() -> String }
struct LiveAPIClient: APIClient { func fetch() -> String { "live" } }
struct MockAPIClient: APIClient { func fetch() -> String { "mock" } }
struct PreviewAPIClient: APIClient { func fetch() -> String { "preview" } }
protocol Analytics: Sendable { func track(_ event: String) }
struct LiveAnalytics: Analytics { func track(_ event: String) {} }
struct NoAnalytics: Analytics { func track(_ event: String) {} }
// snippet.show

// snippet.contexts
container.register(APIClient.self, scope: .singleton) { LiveAPIClient() }
// Each replaces the registration above while its context is active.
container.register(APIClient.self, scope: .singleton, in: .test) { MockAPIClient() }
container.register(APIClient.self, in: .preview) { PreviewAPIClient() }
container.register(APIClient.self, in: .argument("-mockAPI")) { MockAPIClient() }

// Under `swift test` (a debug build): MockAPIClient, its own singleton.
let client = try container.resolveOrThrow(APIClient.self)
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
    try container.resolveOrThrow(APIClient.self)
}
// Exactly the preview context, whatever the process is.
let preview = try WeaveDI.Container.withContexts([.preview], exclusively: true) {
    try container.resolveOrThrow(APIClient.self)
}
// snippet.end

// snippet.declareContexts
// A release build that should use a context: declare it for the whole process…
WeaveDI.Container.declaredContexts = [.custom("demo")]
// …or let detection count as it does in a debug build (`swift test -c release`).
WeaveDI.Container.detectsContexts = true
// snippet.end

// snippet.hide
_ = (model, report, avatar, plugins, orders, client, live, preview)
// snippet.show
