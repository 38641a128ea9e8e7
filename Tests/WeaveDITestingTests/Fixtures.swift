import Foundation
import WeaveDI

/// A dependency each test registers with its own identity.
protocol Marker: Sendable {
    var id: String { get }
}

struct TestMarker: Marker {
    let id: String
}

extension WeaveDI.Container {
    static let markerKey = Factory<Marker?> { nil }
}

/// Reads the marker through every injection path.
final class MarkerReader {
    @Inject var injected: Marker?
    @Factory var factory: Marker
    @Injected(WeaveDI.Container.markerKey) var keyed

    /// What each path sees: UnifiedDI, @Inject, @Factory, a Factory key.
    var ids: [String?] {
        [UnifiedDI.resolve(Marker.self)?.id, injected?.id, factory.id, keyed?.id]
    }
}

/// A non-Sendable service behind an InjectedKey.
protocol Greeter {
    func greet() -> String
}

struct LiveGreeter: Greeter {
    func greet() -> String { "live" }
}

struct FixedGreeter: Greeter {
    let text: String
    func greet() -> String { text }
}

enum GreeterKey: InjectedKey {
    static var liveValue: Greeter { LiveGreeter() }
}

extension InjectedValues {
    var greeter: Greeter {
        get { self[GreeterKey.self] }
        set { self[GreeterKey.self] = newValue }
    }
}

final class GreetingService {
    @Injected(\.greeter) var greeter
}

/// Lets parallel tests wait until all of them have made their registrations, so a registration
/// leaking from one test into another would be seen. Gives up after a while (when tests run
/// serially nothing can leak anyway), without asserting anything about time.
actor Rendezvous {
    private var arrived: [String: Int] = [:]

    func arrive(_ group: String, expecting count: Int) async {
        arrived[group, default: 0] += 1
        for _ in 0..<200 where arrived[group, default: 0] < count {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}

let rendezvous = Rendezvous()
