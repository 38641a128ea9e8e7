import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// The Multi-Module Projects guide's shapes: non-Sendable protocols behind InjectedKey, read with @Injected.
protocol InjectedAPIClient {
    var tag: String { get }
}

struct URLSessionInjectedAPIClient: InjectedAPIClient {
    var tag: String { "live" }
}

final class MockInjectedAPIClient: InjectedAPIClient {
    let tag: String
    var requests = 0
    init(tag: String = "mock") { self.tag = tag }
}

/// Computed requirements: valid in Swift 6 for any value type.
struct InjectedAPIClientKey: InjectedKey {
    static var liveValue: InjectedAPIClient { URLSessionInjectedAPIClient() }
    static var testValue: InjectedAPIClient { MockInjectedAPIClient(tag: "test-default") }
}

/// `static let` requirements with a Sendable value: only liveValue given.
enum GreetingKey: InjectedKey {
    static let liveValue = "hello"
}

enum RegionKey: InjectedKey {
    static let liveValue = "live-region"
}

private let countedDefaults = Counter()
private let racedDefaults = Counter()

enum CountedKey: InjectedKey {
    static var liveValue: Int { countedDefaults.next() }
}

enum RacedKey: InjectedKey {
    static var liveValue: Int {
        Thread.sleep(forTimeInterval: 0.01)
        return racedDefaults.next()
    }
}

enum ContextKey: InjectedKey {
    static var liveValue: String { "live" }
    static var testValue: String { "test" }
    static var previewValue: String { "preview" }
}

enum LiveOnlyKey: InjectedKey {
    static var liveValue: String { "only-live" }
}

extension InjectedValues {
    var apiClient: InjectedAPIClient {
        get { self[InjectedAPIClientKey.self] }
        set { self[InjectedAPIClientKey.self] = newValue }
    }

    var greeting: String {
        get { self[GreetingKey.self] }
        set { self[GreetingKey.self] = newValue }
    }

    var region: String {
        get { self[RegionKey.self] }
        set { self[RegionKey.self] = newValue }
    }

    var counted: Int { self[CountedKey.self] }

    var eventBus: InjectedEventBus {
        get { self[InjectedEventBusKey.self] }
        set { self[InjectedEventBusKey.self] = newValue }
    }
}

protocol InjectedEventBus {
    func publish(_ event: String)
}

final class MockInjectedEventBus: InjectedEventBus {
    let onPublish: (String) -> Void
    init(onPublish: @escaping (String) -> Void) { self.onPublish = onPublish }
    func publish(_ event: String) { onPublish(event) }
}

struct NoOpEventBus: InjectedEventBus {
    func publish(_ event: String) {}
}

struct InjectedEventBusKey: InjectedKey {
    static var liveValue: InjectedEventBus { NoOpEventBus() }
}

final class InjectedUserService {
    @Injected(\.apiClient) var apiClient
    @Injected(\.greeting) var greeting
    @Injected(\.eventBus) var eventBus

    func login() { eventBus.publish("UserLoggedInEvent") }

    func currentTag() -> String { apiClient.tag }
}

private struct InjectedStructOwner {
    @Injected(\.greeting) var greeting
}

@MainActor
private final class MainActorInjectedOwner {
    @Injected(\.apiClient) var apiClient
}

private struct SendableInjectedOwner: Sendable {
    @Injected(\.greeting) var greeting
}

private struct Failure: Error {}

@Suite("InjectedValues and withInjectedValues")
struct InjectedValuesTests {
    @Test("this process is a test process, so keys give their testValue")
    func usesTestValue() {
        #expect(InjectedValues.Context.current == .test)
        #expect(InjectedValues.current.apiClient.tag == "test-default")
        #expect(InjectedValues.current[ContextKey.self] == "test")
    }

    @Test("testValue and previewValue default to liveValue")
    func defaultsToLive() {
        #expect(InjectedValues.current.greeting == "hello")
        #expect(LiveOnlyKey.testValue == "only-live")
        #expect(LiveOnlyKey.previewValue == "only-live")
    }

    @Test("each context reads its own value")
    func perContext() {
        #expect(InjectedDefaults(context: .live).value(for: ContextKey.self) == "live")
        #expect(InjectedDefaults(context: .test).value(for: ContextKey.self) == "test")
        #expect(InjectedDefaults(context: .preview).value(for: ContextKey.self) == "preview")
        #expect(InjectedDefaults(context: .preview).value(for: LiveOnlyKey.self) == "only-live")
    }

    @Test("a default is computed once and kept")
    func defaultComputedOnce() {
        let first = InjectedValues.current.counted
        #expect(InjectedValues.current.counted == first)
        #expect(countedDefaults.value == 1)
    }

    @Test("a default that reads its own key while it is computed gets a fresh value, then the kept one")
    func reentrantDefault() {
        let defaults = InjectedDefaults(context: .live)
        ReentrantKey.defaults.mutate { $0 = defaults }
        // The outer computation reads the key again: that inner read computes a fresh value (10)
        // instead of waiting on itself, and the outer value (11) is the one kept.
        #expect(defaults.value(for: ReentrantKey.self).value == 11)
        #expect(defaults.value(for: ReentrantKey.self).value == 11)
        #expect(ReentrantKey.computations.value == 2)
    }

    @Test("a default raced by many threads is computed exactly once")
    func defaultRace() {
        let seen = Recorder<Int>()
        runConcurrently(threads: 8) { _ in seen.append(InjectedValues.current[RacedKey.self]) }
        #expect(racedDefaults.value == 1)
        #expect(Set(seen.all) == [1])
    }

    @Test("setting an entry changes only that value")
    func valueSemantics() {
        var values = InjectedValues()
        let copy = values
        values.greeting = "hi"
        #expect(values.greeting == "hi")
        #expect(copy.greeting == "hello")
    }

    @Test("overrides apply inside the operation only, and the operation's value is returned")
    func syncOverride() {
        let service = InjectedUserService()
        let tag = withInjectedValues { values in
            values.apiClient = MockInjectedAPIClient(tag: "override")
        } operation: {
            service.currentTag()
        }
        #expect(tag == "override")
        #expect(service.currentTag() == "test-default")
    }

    @Test("nested overrides stack and unwind")
    func nested() {
        withInjectedValues {
            $0.greeting = "outer"
            $0.region = "outer-region"
        } operation: {
            withInjectedValues {
                $0.greeting = "inner"
            } operation: {
                #expect(InjectedValues.current.greeting == "inner")
                #expect(InjectedValues.current.region == "outer-region")
            }
            #expect(InjectedValues.current.greeting == "outer")
        }
        #expect(InjectedValues.current.greeting == "hello")
    }

    @Test("an override ends when its operation throws, and the error is rethrown")
    func endsOnThrow() {
        #expect(throws: Failure.self) {
            try withInjectedValues {
                $0.greeting = "doomed"
            } operation: {
                #expect(InjectedValues.current.greeting == "doomed")
                throw Failure()
            }
        }
        #expect(InjectedValues.current.greeting == "hello")
    }

    @Test("an update that throws rethrows and never runs the operation")
    func updateThrows() {
        var ran = false
        #expect(throws: Failure.self) {
            try withInjectedValues { _ in
                throw Failure()
            } operation: {
                ran = true
            }
        }
        #expect(!ran)
    }

    @Test("async: overrides reach the operation, the tasks it creates, and end with it")
    func asyncOverride() async throws {
        let result = try await withInjectedValues {
            $0.greeting = "async"
        } operation: {
            try await Task.sleep(nanoseconds: 1_000)
            async let child = InjectedValues.current.greeting
            let grouped = await withTaskGroup(of: String.self) { group in
                group.addTask { InjectedValues.current.greeting }
                return await group.next() ?? ""
            }
            return [await child, grouped, InjectedValues.current.greeting]
        }
        #expect(result == ["async", "async", "async"])
        #expect(InjectedValues.current.greeting == "hello")
    }

    @Test("async: an override ends when the operation throws")
    func asyncEndsOnThrow() async {
        await #expect(throws: Failure.self) {
            try await withInjectedValues {
                $0.greeting = "doomed"
            } operation: {
                await Task.yield()
                throw Failure()
            }
        }
        #expect(InjectedValues.current.greeting == "hello")
    }

    @Test("concurrent tasks each see their own overrides")
    func concurrentTasks() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    await withInjectedValues {
                        $0.greeting = "task-\(index)"
                    } operation: {
                        var wrong = 0
                        for _ in 0..<20 {
                            await Task.yield()
                            if InjectedValues.current.greeting != "task-\(index)" { wrong += 1 }
                        }
                        return wrong
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("the seed's call shape works from the main actor with non-Sendable captured state")
    @MainActor
    func seedCallShape() async throws {
        var orderLoadCalled = false
        let mock = MockInjectedAPIClient(tag: "seed")
        try await withInjectedValues { values in
            values.apiClient = mock
        } operation: {
            let service = InjectedUserService()
            try await Task.sleep(nanoseconds: 1_000)
            #expect(service.apiClient.tag == "seed")
            orderLoadCalled = true
        }
        #expect(orderLoadCalled)
    }

    @Test(
        "the Multi-Module Projects guide's integration test: the update closure hands a mock a closure that changes a local"
    )
    @MainActor
    func seedIntegrationShape() async {
        var orderLoadCalled = false
        await withInjectedValues { values in
            values.apiClient = MockInjectedAPIClient()
            values.eventBus = MockInjectedEventBus { event in
                if event == "UserLoggedInEvent" { orderLoadCalled = true }
            }
        } operation: {
            let service = InjectedUserService()
            await Task.yield()
            service.login()
        }
        #expect(orderLoadCalled)
    }

    @Test("@Injected reads on every access, in classes, structs, @MainActor classes and Sendable structs")
    @MainActor
    func injectedEverywhere() {
        let service = InjectedUserService()
        let structOwner = InjectedStructOwner()
        let mainActorOwner = MainActorInjectedOwner()
        let sendableOwner = SendableInjectedOwner()
        #expect(service.greeting == "hello")
        withInjectedValues {
            $0.greeting = "override"
            $0.apiClient = MockInjectedAPIClient(tag: "main")
        } operation: {
            #expect(service.greeting == "override")
            #expect(structOwner.greeting == "override")
            #expect(sendableOwner.greeting == "override")
            #expect(mainActorOwner.apiClient.tag == "main")
        }
        #expect(structOwner.greeting == "hello")
        #expect(mainActorOwner.apiClient.tag == "test-default")
    }
}

@Suite("@Injected forms")
struct InjectedFormsTests {
    @Test("a key path held in a variable works as well as a literal")
    func keyPathVariable() {
        let path: KeyPath<InjectedValues, String> = \.greeting
        let fromVariable = Injected(path)
        let fromLiteral = Injected(\.greeting)
        #expect(fromVariable.wrappedValue == "hello")
        withInjectedValues {
            $0.greeting = "changed"
        } operation: {
            #expect(fromVariable.wrappedValue == "changed")
            #expect(fromLiteral.wrappedValue == "changed")
        }
    }
}

@Suite("InjectedValues.Context detection")
struct InjectionContextTests {
    private func detect(
        environment: [String: String] = [:],
        processName: String = "MyApp",
        arguments: [String] = ["/Applications/MyApp"],
        loaded: Set<String> = []
    ) -> InjectedValues.Context {
        InjectedValues.Context.detect(
            environment: environment, processName: processName,
            arguments: arguments, isTypeLoaded: { loaded.contains($0) })
    }

    @Test("an app with no test signal is live")
    func live() {
        #expect(detect() == .live)
    }

    @Test("Xcode previews are recognised")
    func preview() {
        #expect(detect(environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"]) == .preview)
        #expect(detect(environment: ["XCODE_RUNNING_FOR_PREVIEWS": "0"]) == .live)
    }

    @Test("each test signal alone is recognised")
    func eachSignal() {
        let expected = InjectedValues.Context.test
        #expect(detect(environment: ["XCTestConfigurationFilePath": "/tmp/x.xctestconfiguration"]) == expected)
        #expect(detect(environment: ["XCTestBundlePath": "/tmp/x.xctest"]) == expected)
        #expect(detect(environment: ["XCTestSessionIdentifier": "1"]) == expected)
        #expect(detect(processName: "MyAppPackageTests.xctest") == expected)
        #expect(detect(processName: "xctest") == expected)
        #expect(detect(processName: "swiftpm-testing-helper") == expected)
        #expect(detect(arguments: ["/x/MyAppPackageTests", "--testing-library", "swift-testing"]) == expected)
        #expect(detect(loaded: ["6XCTest0A4CaseC"]) == expected)
        #expect(detect(loaded: ["7Testing4TestV"]) == expected)
    }

    @Test("the runner types' mangled names resolve in a test process on this platform")
    func mangledNamesResolve() {
        #expect(_typeByName("6XCTest0A4CaseC") != nil)
        #expect(_typeByName("7Testing4TestV") != nil)
    }
}

/// A key whose default reads itself once while being computed (through the cache under test).
struct ReentrantKey: InjectedKey {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }
    static let defaults = LockedValue<InjectedDefaults?>(nil)
    static let depth = LockedValue(0)
    static let computations = Counter()

    static var liveValue: Box {
        computations.increment()
        var depth = 0
        Self.depth.mutate {
            $0 += 1
            depth = $0
        }
        defer { Self.depth.mutate { $0 -= 1 } }
        guard depth == 1, let defaults = Self.defaults.value else { return Box(10) }
        return Box(defaults.value(for: ReentrantKey.self).value + 1)
    }
}
