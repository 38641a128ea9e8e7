import Testing
import WeaveDITesting

@testable import WeaveDI
@testable import WeaveDICore

@Suite("The .container trait")
struct ContainerTraitTests {
    @Test(
        .container { container in
            container.register(Marker.self) { TestMarker(id: "configured") }
            WeaveDI.Container.markerKey.register { TestMarker(id: "configured") }
        })
    func everyPathSeesTheTraitContainer() {
        #expect(WeaveDI.Container.shared !== WeaveDI.Container.processWide)
        #expect(MarkerReader().ids == ["configured", "configured", "configured", "configured"])
        #expect(!WeaveDI.Container.processWide.isRegistered(Marker.self))
    }

    @Test(.container)
    func emptyContainer() {
        #expect(WeaveDI.Container.shared !== WeaveDI.Container.processWide)
        #expect(WeaveDI.Container.shared.registrations.isEmpty)
    }

    @Test(
        .container { _ in
            // The closure runs with the test's container bound, so UnifiedDI registers into it.
            UnifiedDI.register(Marker.self) { TestMarker(id: "unified") }
        })
    func configureRunsBound() {
        #expect(UnifiedDI.resolve(Marker.self)?.id == "unified")
    }

    @Test(.container)
    func tasksCreatedByTheTestInherit() async {
        UnifiedDI.register(Marker.self) { TestMarker(id: "inherited") }
        let fromChild = await Task { UnifiedDI.resolve(Marker.self)?.id }.value
        #expect(fromChild == "inherited")
    }

    @Test(
        "parallel cases register different mocks without seeing each other",
        .container, arguments: 0..<12)
    func parallelCases(_ index: Int) async {
        let id = "case-\(index)"
        UnifiedDI.register(Marker.self) { TestMarker(id: id) }
        WeaveDI.Container.markerKey.register { TestMarker(id: id) }
        await rendezvous.arrive("cases", expecting: 12)
        #expect(MarkerReader().ids == [id, id, id, id])
    }

    @Test(.container { $0.register(Marker.self) { TestMarker(id: "A") } })
    func parallelTestA() async {
        await rendezvous.arrive("pair", expecting: 2)
        #expect(MarkerReader().ids.first == "A")
    }

    @Test(.container { $0.register(Marker.self) { TestMarker(id: "B") } })
    func parallelTestB() async {
        await rendezvous.arrive("pair", expecting: 2)
        #expect(MarkerReader().ids.first == "B")
    }
}

/// Applied to a suite, the trait gives each test a fresh container set up by the closure.
@Suite(.container { $0.register(Marker.self) { TestMarker(id: "suite") } })
struct ContainerSuiteTraitTests {
    @Test func first() async {
        WeaveDI.Container.shared.register("first", Marker.self) { TestMarker(id: "first") }
        await rendezvous.arrive("suite", expecting: 2)
        #expect(UnifiedDI.resolve(Marker.self)?.id == "suite")
        #expect(WeaveDI.Container.shared.registrations.count == 2)
    }

    @Test func second() async {
        WeaveDI.Container.shared.register("second", Marker.self) { TestMarker(id: "second") }
        await rendezvous.arrive("suite", expecting: 2)
        #expect(UnifiedDI.resolve(Marker.self)?.id == "suite")
        #expect(WeaveDI.Container.shared.registrations.count == 2)
    }
}
