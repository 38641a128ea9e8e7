// Async factories: services whose construction awaits (a connection, a migration, a remote
// configuration), registered with `registerAsync` and resolved with `try await resolveAsync`.
import WeaveDI

// snippet.hide
final class Database: Sendable {
    static func open(at path: String) async throws -> Database { Database() }
}
final class RemoteConfig: Sendable {
    static func fetch() async throws -> RemoteConfig { RemoteConfig() }
}
final class RequestContext: Sendable {
    init() async {}
}
final class ImageCache: Sendable {
    init() async {}
}
final class Catalog: Sendable {
    init() {}
}
final class Orders: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}
final class Profile: Sendable {}
final class Dashboard: Sendable {
    let orders: Orders
    let profile: Profile
    init(orders: Orders, profile: Profile) {
        self.orders = orders
        self.profile = profile
    }
}
final class Inventory: Sendable {
    let pricing: Pricing
    init(pricing: Pricing) { self.pricing = pricing }
}
final class Pricing: Sendable {
    let inventory: Inventory
    init(inventory: Inventory) { self.inventory = inventory }
}
@MainActor final class SessionStore {
    var userName = "guest"
    init() {}
}
// snippet.show

// snippet.register
let container = WeaveDI.Container()
// Every scope takes an async factory: built on the first `resolveAsync`, then as the scope says.
container.registerAsync(Database.self, scope: .singleton) {
    try await Database.open(at: "shop.sqlite")
}
container.registerAsync(ImageCache.self, scope: .weak) { await ImageCache() }
container.registerAsync(RequestContext.self, scope: .request) { await RequestContext() }
container.registerAsync(Orders.self) { // .transient: a new one per resolution
    Orders(database: try await container.resolveAsync(Database.self))
}
// Named, like `register(_:_:)`.
container.registerAsync("staging", RemoteConfig.self, scope: .singleton) { try await RemoteConfig.fetch() }
// snippet.end

// snippet.module
let databaseModule = Module(
    Database.self, scope: .singleton,
    asyncFactory: {
        try await Database.open(at: "shop.sqlite")
    })
// snippet.end

// snippet.unified
UnifiedDI.registerAsync(RemoteConfig.self, scope: .singleton) { try await RemoteConfig.fetch() }
let config = try await UnifiedDI.resolveAsync(RemoteConfig.self)
// snippet.end

// snippet.resolve
let database = try await container.resolveAsync(Database.self)
let staging = try await container.resolveAsync("staging", RemoteConfig.self)
let orders = try await container.resolveAsync(Orders.self)
// Sync registrations resolve with await too, so async code needs one spelling.
container.register(Catalog.self, scope: .singleton) { Catalog() }
let catalog = try await container.resolveAsync(Catalog.self)
// A scoped instance, inside its scope.
let context = try await container.withScope(.request) {
    try await container.resolveAsync(RequestContext.self)
}
// snippet.end

// snippet.concurrent
// Ten tasks ask at once: one build, nine suspended waiters, one instance.
let databases = try await withThrowingTaskGroup(of: Database.self) { group in
    for _ in 0..<10 { group.addTask { try await container.resolveAsync(Database.self) } }
    var databases: [Database] = []
    for try await database in group { databases.append(database) }
    return databases
}
print(databases.allSatisfy { $0 === database }) // true
// snippet.end

// snippet.childTasks
container.register(Profile.self) { Profile() }
container.registerAsync(Dashboard.self) {
    // Both are built at once; a child that needs what the other is building waits for it. A
    // child that came back to Dashboard would be reported as a cycle, never a hang.
    async let orders = container.resolveAsync(Orders.self)
    async let profile = container.resolveAsync(Profile.self)
    return Dashboard(orders: try await orders, profile: try await profile)
}
let dashboard = try await container.resolveAsync(Dashboard.self)
// snippet.end

// snippet.cycle
container.registerAsync(Inventory.self, scope: .singleton) {
    Inventory(pricing: try await container.resolveAsync(Pricing.self))
}
container.registerAsync(Pricing.self, scope: .singleton) {
    Pricing(inventory: try await container.resolveAsync(Inventory.self))
}
do {
    _ = try await container.resolveAsync(Inventory.self)
} catch {
    print(error) // the cycle, with its path: Inventory → Pricing → Inventory
}
// snippet.end

// snippet.cancellation
let slow = WeaveDI.Container()
slow.registerAsync(Catalog.self, scope: .singleton) {
    try await Task.sleep(for: .milliseconds(100)) // throws if the building task is cancelled
    return Catalog()
}
let impatient = Task { try await slow.resolveAsync(Catalog.self) }
impatient.cancel()
do {
    _ = try await impatient.value
} catch is CancellationError {
    // The waiter gets CancellationError. Had it been building, the factory saw the cancellation
    // and threw: nothing was stored, so the next resolution builds again.
}
let built = try await slow.resolveAsync(Catalog.self)
// snippet.end

// snippet.mainActor
container.registerAsync(SessionStore.self, scope: .singleton) { @MainActor in
    SessionStore() // runs on the main actor; a @MainActor class is Sendable, so it can leave it
}
let session = try await container.resolveAsync(SessionStore.self)
print(session.userName)
// snippet.end

// snippet.misuse
do {
    _ = try container.resolveOrThrow(Database.self)
} catch DIError.asyncResolutionRequired(let type, let name) {
    print("\(type)\(name.map { " named \($0)" } ?? "") is async-only: use `try await container.resolveAsync`")
}
// snippet.end

// snippet.validate
let report = await container.validateAsync()
print(report.isValid ? "every registration, async ones included, builds" : "\(report)")
// snippet.end

// snippet.hide
withExtendedLifetime((databaseModule, config, staging, orders, catalog, context, dashboard, built)) {}
// snippet.show
