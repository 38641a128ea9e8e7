// Register how to build each service once, at start-up; resolve it anywhere.
import WeaveDI

// snippet.hide
protocol DatabaseService: Sendable { func names() -> [String] }
struct SQLiteDatabaseService: DatabaseService { func names() -> [String] { ["Ada"] } }
protocol UserRepository: Sendable { func userNames() -> [String] }
struct UserRepositoryImpl: UserRepository {
    let database: any DatabaseService
    func userNames() -> [String] { database.names() }
}
protocol PaymentService {}
final class NameFormatter { func format(_ name: String) -> String { name.uppercased() } }
// snippet.show

// snippet.bootstrap
await WeaveDI.Container.bootstrap { container in
    container.register(DatabaseService.self, scope: .singleton) { SQLiteDatabaseService() }
    container.register(UserRepository.self) {
        UserRepositoryImpl(database: try container.resolveOrThrow(DatabaseService.self))
    }
    container.register(NameFormatter.self) { NameFormatter() }
}
// snippet.end

// snippet.resolve
let repository = WeaveDI.Container.shared.resolve(UserRepository.self) // (any UserRepository)?
let database = UnifiedDI.resolve(DatabaseService.self) // the one singleton
// snippet.end

// snippet.wrappers
final class ProfileViewModel {
    @Inject var repository: (any UserRepository)? // resolved on first read, then kept
    @RequiredInject var database: any DatabaseService // stops with a precise message if missing
    @Factory var formatter: NameFormatter // a new instance on every read

    func title() -> String {
        formatter.format(repository?.userNames().first ?? "nobody")
    }
}
// snippet.end

// snippet.errors
do {
    _ = try WeaveDI.Container.shared.resolveOrThrow(PaymentService.self)
} catch {
    // No registration for GettingStarted.PaymentService. Register it with
    // `container.register(PaymentService.self) { ... }` (or a module) before resolving it.
    print(error)
}
// snippet.end

// snippet.syncLaunch
// In a synchronous App.init (or an app delegate's didFinishLaunching): register directly on the
// shared container; nothing here waits.
struct ShopApp {
    init() {
        let container = WeaveDI.Container.shared
        container.register(DatabaseService.self, scope: .singleton) { SQLiteDatabaseService() }
        container.register(UserRepository.self) {
            UserRepositoryImpl(database: try container.resolveOrThrow(DatabaseService.self))
        }
    }
}
// snippet.end

// snippet.sendable
// 1. A Sendable struct: the wrappers are Sendable when their values are.
struct ProfileLoader: Sendable {
    @Inject var repository: (any UserRepository)?
}

// 2. A class whose only mutable state is the wrappers' (each is thread-safe and never reassigned).
final class ProfileCache: @unchecked Sendable {
    @Inject var repository: (any UserRepository)?
}

// 3. An actor, or a class isolated to the main actor.
actor ProfileStore {
    @Inject var repository: (any UserRepository)?
}

@MainActor
final class ProfileScreenModel {
    @Inject var repository: (any UserRepository)?
}
// snippet.end

// snippet.hide
_ = ShopApp()
print(ProfileViewModel().title(), repository != nil, database != nil)
