import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

// validate()'s verdict is resolution's, whatever way a factory reaches its dependencies and
// whichever container serves it: a false "valid" is a defect like a false "invalid". Where a
// factory reaches outside the validated container, the report says so and names the container.

struct VVAPIClient {}
struct VVUserRepository { init(_ api: VVAPIClient) {} }
struct VVStore { init(_ dependency: VVDependency) {} }
struct VVDependency {}

extension Container {
    /// A key whose default resolves the API client from the shared container.
    static let vvAPIKey = Factory<VVAPIClient> { try Container.shared.resolveOrThrow(VVAPIClient.self) }
}

/// How the root's factory reaches its dependency.
enum Reach: String, CaseIterable, Sendable {
    case capturedContainer, sharedContainer, unifiedDI, module, factoryKey
}

@Suite("validate() verdict equals resolution's", .capturesLog)
struct ValidationVerdictTests {
    /// A container whose `VVUserRepository` factory reaches `VVAPIClient` the given way.
    static func container(_ reach: Reach, registeringTheClient: Bool) async -> Container {
        let container = Container()
        switch reach {
        case .capturedContainer:
            container.register(VVUserRepository.self) {
                VVUserRepository(try container.resolveOrThrow(VVAPIClient.self))
            }
        case .sharedContainer:
            container.register(VVUserRepository.self) {
                VVUserRepository(try Container.shared.resolveOrThrow(VVAPIClient.self))
            }
        case .unifiedDI:
            container.register(VVUserRepository.self) {
                VVUserRepository(try UnifiedDI.resolveOrThrow(VVAPIClient.self))
            }
        case .module:
            await container.register(
                Module(VVUserRepository.self) { VVUserRepository(try container.resolveOrThrow(VVAPIClient.self)) })
        case .factoryKey:
            container.register(VVUserRepository.self) { VVUserRepository(try Container.vvAPIKey.resolveOrThrow()) }
        }
        if registeringTheClient { container.register(VVAPIClient.self) { VVAPIClient() } }
        return container
    }

    /// Whether resolving `VVUserRepository` from `container` works, with `shared` as `Container.shared`.
    static func resolves(_ container: Container, shared: Container) -> Bool {
        Container.withShared(shared) { (try? container.resolveOrThrow(VVUserRepository.self)) != nil }
    }

    @Test(
        "every way of reaching a dependency, registered or not, the container shared or not",
        arguments: Reach.allCases, [true, false])
    func verdictMatchesResolution(reach: Reach, registered: Bool) async {
        for bound in [true, false] {
            let container = await Self.container(reach, registeringTheClient: registered)
            // The container the factories' `Container.shared` is: this one, or another one.
            let shared = bound ? container : Container()
            let report = Container.withShared(shared) { container.validate() }
            let resolution = Self.resolves(container, shared: shared)
            #expect(
                report.isValid == resolution,
                "\(reach), registered: \(registered), bound: \(bound): validate \(report.isValid), resolve \(resolution)\n\(report)"
            )
        }
    }

    @Test(
        "a factory using UnifiedDI while another container is validated: invalid, and the report names Container.shared"
    )
    func unifiedDIOutsideTheValidatedContainer() throws {
        let container = Container()
        container.register(VVUserRepository.self) { VVUserRepository(try UnifiedDI.resolveOrThrow(VVAPIClient.self)) }
        container.register(VVAPIClient.self) { VVAPIClient() }
        let elsewhere = Container()
        let report = Container.withShared(elsewhere) { container.validate() }
        #expect(!report.isValid)
        #expect(Container.withShared(elsewhere) { (try? container.resolveOrThrow(VVUserRepository.self)) == nil })
        let missing = try #require(report.missingDependencies.first)
        #expect(missing.missing == "WeaveDITests.VVAPIClient")
        #expect(missing.askedOf == "Container.shared (the container bound with withShared)")
        #expect(
            missing.description.contains(
                "needs WeaveDITests.VVAPIClient, which is not registered in Container.shared (the container bound with withShared)"
            ), "\(missing)")
        #expect(
            report.outsideResolutions == [
                .init(
                    dependent: "WeaveDITests.VVUserRepository",
                    container: "Container.shared (the container bound with withShared)")
            ])
        #expect(report.description.contains("Resolved outside the validated container:"), "\(report)")
        // Nothing was registered or built in the container the factory reached.
        #expect(elsewhere.registrations.isEmpty)
    }

    @Test("the process-wide Container.shared is named as such")
    func processWideShared() throws {
        let container = Container()
        container.register(VVUserRepository.self) { VVUserRepository(try UnifiedDI.resolveOrThrow(VVAPIClient.self)) }
        container.register(VVAPIClient.self) { VVAPIClient() }
        let report = container.validate()
        #expect(!report.isValid)
        #expect(report.outsideResolutions.map(\.container) == ["Container.shared (the process-wide container)"])
        #expect(container.resolve(VVUserRepository.self) == nil)
    }

    @Test(
        "a parent's factory resolving from the captured parent, the dependency only in the child: invalid, names the parent"
    )
    func capturedParent() throws {
        let parent = Container()
        parent.register(VVStore.self) { VVStore(try parent.resolveOrThrow(VVDependency.self)) }
        let child = Container(parent: parent)
        child.register(VVDependency.self) { VVDependency() }
        let report = Container.withShared(child) { child.validate() }
        #expect(child.resolve(VVStore.self) == nil)
        #expect(!report.isValid, "\(report)")
        let missing = try #require(report.missingDependencies.first)
        #expect(missing.dependent == "WeaveDITests.VVStore")
        #expect(missing.askedOf == "its parent")
        #expect(report.outsideResolutions == [.init(dependent: "WeaveDITests.VVStore", container: "its parent")])
        // The same factory, with the dependency in the parent: valid, and resolution agrees.
        parent.register(VVDependency.self) { VVDependency() }
        let fixed = Container.withShared(child) { child.validate() }
        #expect(fixed.isValid, "\(fixed)")
        #expect(child.resolve(VVStore.self) != nil)
        #expect(fixed.outsideResolutions.map(\.container) == ["its parent"], "still said: it resolves from the parent")
    }

    @Test("a child whose factory resolves from the child itself: valid, nothing outside")
    func childFactoryResolvingFromTheChild() {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(VVStore.self) { VVStore(try child.resolveOrThrow(VVDependency.self)) }
        parent.register(VVDependency.self) { VVDependency() }
        let report = child.validate()
        #expect(report.isValid, "\(report)")
        #expect(child.resolve(VVStore.self) != nil)
        #expect(report.outsideResolutions.isEmpty)
    }

    @Test("validating the container bound as shared: nothing is outside")
    func validatingTheSharedContainer() {
        let container = Container()
        container.register(VVUserRepository.self) { VVUserRepository(try UnifiedDI.resolveOrThrow(VVAPIClient.self)) }
        container.register(VVAPIClient.self) { VVAPIClient() }
        let report = Container.withShared(container) { container.validate() }
        #expect(report.isValid, "\(report)")
        #expect(report.outsideResolutions.isEmpty)
    }
}
