#if canImport(XCTest)
    import WeaveDI
    import WeaveDICore
    import WeaveDITesting
    import XCTest

    final class WeaveDITestCaseTests: WeaveDITestCase {
        private var seenInSetUp: String?

        override func registerDependencies(in container: WeaveDI.Container) {
            container.register(Marker.self) { TestMarker(id: "xctest") }
        }

        override func overrideInjectedValues(_ values: inout InjectedValues) {
            values.greeter = FixedGreeter(text: "xctest")
        }

        override func setUp() {
            super.setUp()
            seenInSetUp = UnifiedDI.resolve(Marker.self)?.id
        }

        func testEveryPathSeesTheTestContainer() {
            XCTAssertEqual(seenInSetUp, "xctest")
            XCTAssertTrue(WeaveDI.Container.shared === container)
            XCTAssertEqual(MarkerReader().injected?.id, "xctest")
            XCTAssertEqual(GreetingService().greeter.greet(), "xctest")
        }

        func testAsyncTestSeesTheTestContainer() async throws {
            try await Task.sleep(nanoseconds: 1_000)
            XCTAssertEqual(UnifiedDI.resolve(Marker.self)?.id, "xctest")
            XCTAssertEqual(GreetingService().greeter.greet(), "xctest")
        }

        // The misses are on purpose: a capture of their own keeps the debug build's first-miss
        // warning out of the test output.
        func testRegistrationsDoNotLeakBetweenTests1() {
            LogCapture.$current.withValue(LogCapture()) {
                XCTAssertNil(UnifiedDI.resolve("leftover", Marker.self))
                UnifiedDI.register("leftover", Marker.self) { TestMarker(id: "1") }
            }
        }

        func testRegistrationsDoNotLeakBetweenTests2() {
            LogCapture.$current.withValue(LogCapture()) {
                XCTAssertNil(UnifiedDI.resolve("leftover", Marker.self))
                UnifiedDI.register("leftover", Marker.self) { TestMarker(id: "2") }
            }
        }
    }

    final class IsolatedContainerTests: XCTestCase {
        func testWithIsolatedContainer() {
            let id = withIsolatedContainer {
                $0.register(Marker.self) { TestMarker(id: "isolated") }
            } operation: {
                UnifiedDI.resolve(Marker.self)?.id
            }
            XCTAssertEqual(id, "isolated")
        }

        func testAsyncWithIsolatedContainer() async {
            let id = await withIsolatedContainer {
                $0.register(Marker.self) { TestMarker(id: "async") }
            } operation: {
                await Task.yield()
                return UnifiedDI.resolve(Marker.self)?.id
            }
            XCTAssertEqual(id, "async")
        }
    }
#endif
