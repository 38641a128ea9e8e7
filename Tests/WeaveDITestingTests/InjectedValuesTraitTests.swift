import Testing
import WeaveDI
import WeaveDITesting

@Suite("The .injectedValues trait")
struct InjectedValuesTraitTests {
    @Test(.injectedValues { $0.greeter = FixedGreeter(text: "mocked") })
    func overrides() {
        #expect(GreetingService().greeter.greet() == "mocked")
    }

    @Test func withoutTraitTheDefaultApplies() {
        #expect(GreetingService().greeter.greet() == "live")
    }

    @Test(.injectedValues { $0.greeter = FixedGreeter(text: "one") })
    func parallelOne() async {
        await rendezvous.arrive("values", expecting: 2)
        #expect(GreetingService().greeter.greet() == "one")
    }

    @Test(.injectedValues { $0.greeter = FixedGreeter(text: "two") })
    func parallelTwo() async {
        await rendezvous.arrive("values", expecting: 2)
        #expect(GreetingService().greeter.greet() == "two")
    }

    @Test(
        .container { $0.register(Marker.self) { TestMarker(id: "both") } },
        .injectedValues { $0.greeter = FixedGreeter(text: "both") })
    func combined() async {
        let seen = await Task { (UnifiedDI.resolve(Marker.self)?.id, GreetingService().greeter.greet()) }.value
        #expect(seen.0 == "both")
        #expect(seen.1 == "both")
    }
}
