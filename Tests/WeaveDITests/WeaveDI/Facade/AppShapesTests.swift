import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// The shapes WeaveDI 3.x apps write that agree with the guides. (The shapes that contradict
// them must not compile: Scripts/check-app-shapes.sh checks their messages.)

protocol ShapeRepository: Sendable { var source: String { get } }
struct ShapeRepositoryImpl: ShapeRepository { var source: String { "impl" } }
protocol ShapeUseCase: Sendable { var repository: any ShapeRepository { get } }
struct ShapeUseCaseImpl: ShapeUseCase { let repository: any ShapeRepository }
struct ShapeFallbackRepository: ShapeRepository { var source: String { "fallback" } }

/// An app's module definitions as computed properties, beside `makeUseCaseWithRepository`.
extension RegisterModule {
    var shapeRepositoryModule: @Sendable () -> Module {
        makeDependency((any ShapeRepository).self) { ShapeRepositoryImpl() }
    }
    var shapeUseCaseModule: @Sendable () -> Module {
        makeUseCaseWithRepository(
            (any ShapeUseCase).self, repositoryProtocol: (any ShapeRepository).self,
            repositoryFallback: ShapeFallbackRepository(), factory: { ShapeUseCaseImpl(repository: $0) })
    }
}

/// An implementation that is its own key.
struct ShapeClock: InjectedKey, Sendable {
    let label: String
    static var liveValue: ShapeClock { ShapeClock(label: "live") }
    static var testValue: ShapeClock { ShapeClock(label: "test") }
}

struct ShapeClockOwner {
    @Injected(ShapeClock.self) var clock: ShapeClock
}

/// What an app delegate does: a synchronous call.
func shapeAppDidFinishLaunching(registering label: String) -> Task<Void, any Error> {
    WeaveDI.Container.bootstrapInTask { container in
        await Task.yield() // registrations made after a suspension, as a real bootstrap's are
        container.register(String.self, scope: .singleton) { label }
    }
}

struct ShapeBootstrapFailure: Error {}

@Suite("App shapes of WeaveDI 3.x that agree with the guides")
struct AppShapesTests {
    @Test("makeDependency gives a definition where one is expected, and a Module elsewhere")
    func makeDependencyDefinition() {
        let registerModule = RegisterModule()
        var definitions: [@Sendable () -> Module] = []
        definitions.append(registerModule.shapeRepositoryModule)
        definitions.append(registerModule.shapeUseCaseModule)
        definitions.append(registerModule.makeDependency(Int.self) { 42 })
        let container = Container()
        for definition in definitions { container.register(definition()) }
        #expect(container.resolve((any ShapeUseCase).self)?.repository.source == "impl")
        #expect(container.resolve(Int.self) == 42)

        // Unstated, the result is still a Module (existing code keeps compiling).
        let module = registerModule.makeDependency(Double.self) { 1.5 }
        let asModule: Module = module
        container.register(asModule)
        #expect(container.resolve(Double.self) == 1.5)
    }

    @Test("bootstrapInTask returns at once; waitForBootstrap orders a later resolution after it")
    func bootstrapInTaskThenWait() async throws {
        try await Container.withShared(Container()) {
            _ = shapeAppDidFinishLaunching(registering: "configured")
            try await WeaveDI.Container.waitForBootstrap()
            #expect(UnifiedDI.resolve(String.self) == "configured")
            // Nothing pending: returns at once.
            try await WeaveDI.Container.waitForBootstrap()
        }
    }

    @Test("the returned task can be awaited instead")
    func bootstrapInTaskValue() async throws {
        try await Container.withShared(Container()) {
            try await shapeAppDidFinishLaunching(registering: "awaited").value
            #expect(UnifiedDI.resolve(String.self) == "awaited")
        }
    }

    @Test("a failing bootstrap's error reaches the waiter once; other containers' bootstraps are not waited for")
    func bootstrapInTaskFailure() async throws {
        let other = Container()
        let release = AsyncStream<Void>.makeStream()
        _ = Container.withShared(other) {
            WeaveDI.Container.bootstrapInTask { _ in
                for await _ in release.stream {} // pending until the end of the test
            }
        }
        try await Container.withShared(Container()) {
            WeaveDI.Container.bootstrapInTask { _ in throw ShapeBootstrapFailure() }
            await #expect(throws: ShapeBootstrapFailure.self) { try await WeaveDI.Container.waitForBootstrap() }
            try await WeaveDI.Container.waitForBootstrap()
        }
        release.continuation.finish()
        try await Container.withShared(other) { try await WeaveDI.Container.waitForBootstrap() }
    }

    @Test("@Injected(K.self) reads an InjectedKey type directly, override included")
    func injectedKeyType() {
        #expect(ShapeClockOwner().clock.label == "test")
        withInjectedValues {
            $0[ShapeClock.self] = ShapeClock(label: "mock")
        } operation: {
            #expect(ShapeClockOwner().clock.label == "mock")
        }
    }
}
