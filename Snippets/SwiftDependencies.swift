// One dependency, read as `@Dependency` (swift-dependencies, TCA) and as `@Injected` (WeaveDI).
// Compiled with the `Dependencies` trait only (`swift build --traits Dependencies`), and run by
// the tests: Tests/WeaveDIDependenciesTests/SwiftDependenciesArticle.swift is this file, and
// SwiftDependenciesArticleTests.swift calls what it declares.
import WeaveDI

#if Dependencies
    // snippet.declare
    protocol WeatherClient: Sendable {
        func forecast(city: String) async throws -> String
    }
    struct LiveWeatherClient: WeatherClient {
        func forecast(city: String) async throws -> String { "Sunny in \(city)" }
    }
    struct OfflineWeatherClient: WeatherClient {
        func forecast(city: String) async throws -> String { "No forecast for \(city) offline" }
    }
    struct StubWeatherClient: WeatherClient {
        var text = "Stubbed"
        func forecast(city: String) async throws -> String { "\(text) in \(city)" }
    }

    // The live value is the container's registration of `any WeatherClient`. When nothing is
    // registered, the fallback; in tests and previews, swift-dependencies' context picks these.
    enum WeatherClientKey: BridgedDependencyKey {
        static let bridge = DependencyBridge<any WeatherClient>(
            fallback: { OfflineWeatherClient() },
            testValue: { StubWeatherClient(text: "Test weather") },
            previewValue: { StubWeatherClient(text: "Preview weather") }
        )
    }

    extension DependencyValues {
        var weather: any WeatherClient {
            get { self[bridged: WeatherClientKey.self] }
            set { self[bridged: WeatherClientKey.self] = newValue }
        }
    }
    extension InjectedValues {
        var weather: any WeatherClient {
            get { self[bridged: WeatherClientKey.self] }
            set { self[bridged: WeatherClientKey.self] = newValue }
        }
    }
    // snippet.end

    // snippet.register
    // At launch: a registration like any other, with its lifetime (and, if the key's bridge
    // has a `name`, under that name).
    func registerWeather(in container: WeaveDI.Container) {
        container.register((any WeatherClient).self, scope: .singleton) { LiveWeatherClient() }
    }
    // snippet.end

    // snippet.read
    // A TCA-style model reads it with @Dependency ...
    final class ForecastModel {
        @Dependency(\.weather) var weather
        func headline(city: String) async -> String {
            (try? await weather.forecast(city: city)) ?? "Unavailable"
        }
    }

    // ... and a WeaveDI service with @Injected: the same value.
    struct ForecastService {
        @Injected(\.weather) var weather
        func summary(city: String) async throws -> String { try await weather.forecast(city: city) }
    }
    // snippet.end

    // snippet.override
    // One override reaches both worlds, in this task and the tasks it creates.
    func headlineWithInjectedOverride() async -> String {
        await withInjectedValues {
            $0.weather = StubWeatherClient(text: "Overridden")
        } operation: {
            await ForecastModel().headline(city: "Oslo") // reads the override with @Dependency
        }
    }

    func summaryWithDependenciesOverride() async throws -> String {
        try await withDependencies {
            $0.weather = StubWeatherClient(text: "Overridden")
        } operation: {
            try await ForecastService().summary(city: "Oslo") // reads it with @Injected
        }
    }
    // snippet.end

    // snippet.escaping
    // An escaping closure (a callback, a detached task) gets the override through
    // swift-dependencies' withEscapedDependencies, whichever world set it.
    func headlineFromEscapingClosure() -> Task<String, Never> {
        withInjectedValues {
            $0.weather = StubWeatherClient(text: "Escaped")
        } operation: {
            withEscapedDependencies { continuation in
                Task.detached {
                    await continuation.yield { await ForecastModel().headline(city: "Oslo") }
                }
            }
        }
    }
    // snippet.end

    // snippet.errors
    // The live value as an error instead of a fallback or a trap: the container's DIError.
    func liveWeather() throws -> any WeatherClient {
        try WeatherClientKey.resolveLive()
    }
// snippet.end
#endif
