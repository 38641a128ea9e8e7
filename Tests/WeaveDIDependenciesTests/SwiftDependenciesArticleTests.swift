#if Dependencies
    import Testing
    import WeaveDI

    // Runs the code of the article "Using WeaveDI with swift-dependencies and TCA", which is
    // Snippets/SwiftDependencies.swift (compiled into this target as SwiftDependenciesArticle.swift).

    @Suite("Dependencies bridge: the article's code does what the article says")
    struct SwiftDependenciesArticleTests {
        /// In swift-dependencies' live context, with a container of its own as `Container.shared`.
        func inLive(_ container: Container, _ body: () async throws -> Void) async throws {
            try await Container.withShared(container) { () async throws -> Void in
                try await withDependencies {
                    $0.context = .live
                } operation: {
                    try await body()
                }
            }
        }

        @Test("the registration is the live value, read both ways")
        func liveValue() async throws {
            let container = Container()
            registerWeather(in: container)
            try await inLive(container) {
                #expect(await ForecastModel().headline(city: "Oslo") == "Sunny in Oslo")
                let value1 = try await ForecastService().summary(city: "Oslo")
                #expect(value1 == "Sunny in Oslo")
                let weather = try liveWeather()
                #expect(weather is LiveWeatherClient)
            }
        }

        @Test("without a registration: the fallback for reads, the container's error from resolveLive()")
        func fallbackAndError() async throws {
            try await inLive(Container()) {
                #expect(await ForecastModel().headline(city: "Oslo") == "No forecast for Oslo offline")
                let value2 = try await ForecastService().summary(city: "Oslo")
                #expect(value2 == "No forecast for Oslo offline")
            }
            // resolveLive() falls back too: only a failure other than this key's own missing
            // registration is thrown.
            let container = Container()
            container.register((any WeatherClient).self) { throw CancellationError() }
            try await inLive(container) {
                #expect(throws: DIError.self) { try liveWeather() }
            }
        }

        @Test("one override reaches both worlds")
        func overrides() async throws {
            let container = Container()
            registerWeather(in: container)
            try await inLive(container) {
                #expect(await headlineWithInjectedOverride() == "Overridden in Oslo")
                let value3 = try await summaryWithDependenciesOverride()
                #expect(value3 == "Overridden in Oslo")
                // Over: the registration again.
                #expect(await ForecastModel().headline(city: "Oslo") == "Sunny in Oslo")
            }
        }

        @Test("withEscapedDependencies carries a withInjectedValues override into a detached task")
        func escaping() async throws {
            let container = Container()
            registerWeather(in: container)
            try await inLive(container) {
                #expect(await headlineFromEscapingClosure().value == "Escaped in Oslo")
                #expect(await ForecastModel().headline(city: "Oslo") == "Sunny in Oslo")
            }
        }

        @Test("tests and previews get the bridge's test and preview values")
        func testAndPreview() async throws {
            let container = Container()
            registerWeather(in: container)
            try await Container.withShared(container) { () async throws -> Void in
                // A test process is swift-dependencies' .test context.
                #expect(await ForecastModel().headline(city: "Oslo") == "Test weather in Oslo")
                let value4 = try await ForecastService().summary(city: "Oslo")
                #expect(value4 == "Test weather in Oslo")
                try await withDependencies {
                    $0.context = .preview
                } operation: {
                    #expect(await ForecastModel().headline(city: "Oslo") == "Preview weather in Oslo")
                    let value5 = try await ForecastService().summary(city: "Oslo")
                    #expect(value5 == "Preview weather in Oslo")
                }
            }
        }
    }
#endif
