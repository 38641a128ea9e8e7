// The Practical Usage guide's code written with the `DI` spelling of the facade, in the Swift 5
// language mode: non-Sendable protocols and mocks, as apps of that era write them.
import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

protocol APIService {
    var mockUserData: [String: String] { get }
}

final class URLSessionAPIService: APIService {
    var mockUserData: [String: String] { [:] }
}

final class MockAPIService: APIService {
    var mockUserData: [String: String] = [:]
}

protocol CacheService: AnyObject {
    func getUser(id: String) -> String?
    func setUser(_ user: String, id: String)
}

final class NSCacheService: CacheService {
    private var users: [String: String] = [:]
    func getUser(id: String) -> String? { users[id] }
    func setUser(_ user: String, id: String) { users[id] = user }
}

protocol UserUseCase {
    func profileName(id: String) -> String?
}

final class UserUseCaseImpl: UserUseCase {
    @RequiredInject var api: APIService
    @Inject var cache: CacheService?

    func profileName(id: String) -> String? {
        let name = api.mockUserData["name"]
        if let name { cache?.setUser(name, id: id) }
        return name
    }
}

protocol AnalyticsService {
    var name: String { get }
}

final class FirebaseAnalytics: AnalyticsService { let name = "firebase" }
final class NoOpAnalytics: AnalyticsService { let name = "noop" }

final class ExpensiveService {}

// The guide's `extension UnifiedDI { static func setupCleanArchitecture() … }`, on the `DI` name.
extension DI {
    static func setupCleanArchitecture(isDebug: Bool) {
        registerMany {
            Registration(UserUseCase.self) { UserUseCaseImpl() }
            Registration(APIService.self) { URLSessionAPIService() }
            Registration(CacheService.self) { NSCacheService() }
            Registration(
                AnalyticsService.self, condition: !isDebug,
                factory: { FirebaseAnalytics() },
                fallback: { NoOpAnalytics() })
        }
    }
}

@Suite("The DI facade in the Swift 5 language mode", .capturesLog)
struct DIFacadeSwift5Tests {
    @Test func cleanArchitectureSetupThroughAnExtensionOfDI() {
        Container.withShared(Container()) {
            DI.setupCleanArchitecture(isDebug: true)
            #expect(DI.resolve(AnalyticsService.self)?.name == "noop")
            #expect(DI.resolve(CacheService.self) != nil)
            // An extension of `DI` is one of `UnifiedDI`: the same type.
            UnifiedDI.setupCleanArchitecture(isDebug: false)
            #expect(UnifiedDI.resolve(AnalyticsService.self)?.name == "firebase")
        }
    }

    /// The guide's integration test: `releaseAll`, `registerMany` with non-Sendable mocks,
    /// `requireResolve`, and a forced cast of what `resolve` returns.
    @Test func integrationTestShapeWithDI() async {
        await Container.withShared(Container()) {
            await DI.releaseAll()
            let mockAPI = MockAPIService()
            DI.registerMany {
                Registration(CacheService.self) { NSCacheService() }
                Registration(APIService.self) { mockAPI }
                Registration(UserUseCase.self) { UserUseCaseImpl() }
            }
            let userUseCase: UserUseCase = DI.requireResolve(UserUseCase.self)
            let api = DI.resolve(APIService.self) as! MockAPIService
            api.mockUserData = ["id": "1", "name": "John"]
            #expect(userUseCase.profileName(id: "1") == "John")
            // What DI registered, UnifiedDI resolves: one shared container.
            #expect(UnifiedDI.resolve(APIService.self) as? MockAPIService === mockAPI)
            await UnifiedDI.releaseAll()
            #expect(DI.resolve(APIService.self) == nil)
        }
    }

    @Test func lazyRegistrationAndTrackingWithDI() {
        Container.withShared(Container()) {
            DI.register(ExpensiveService.self) {
                // Defer creation until actually resolved
                ExpensiveService()
            }
            let first = DI.resolveWithTracking(ExpensiveService.self)
            #expect(first != nil)
            #expect(first !== DI.resolve(ExpensiveService.self))
            #expect(DI.statistics().contains { $0.typeName.contains("ExpensiveService") })
        }
    }
}
