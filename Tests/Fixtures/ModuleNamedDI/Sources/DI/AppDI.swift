import WeaveDI

/// A service the composition root registers.
public protocol Greeter: Sendable {
    func greet(_ name: String) -> String
}

final class EnglishGreeter: Greeter {
    func greet(_ name: String) -> String { "Hello, \(name)" }
}

/// A second service, resolved by the first spelling and registered by the other.
public struct Clock: Sendable {
    public let label: String
}

/// The composition root: inside the module named `DI`, unqualified `DI` is WeaveDI's facade.
public enum AppDI {
    public static func configure() {
        DI.register(Greeter.self, scope: .singleton) { EnglishGreeter() }
        UnifiedDI.register(Clock.self) { Clock(label: "unified") }
        // The module-qualified name of the facade, the one spelling that works everywhere.
        WeaveDI.DI.register("formal", Greeter.self) { EnglishGreeter() }
    }
}

// An extension of the facade through its `DI` name extends `UnifiedDI`.
extension DI {
    /// The greeter every module uses.
    public static var greeter: any Greeter { requireResolve(Greeter.self) }
}
