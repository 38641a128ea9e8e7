import WeaveDI

protocol Greeter: Sendable { func greet(_ name: String) -> String }
struct EnglishGreeter: Greeter { func greet(_ name: String) -> String { "Hello, \(name)!" } }
final class Clock: Sendable { let started = ContinuousClock.now }

await WeaveDI.Container.bootstrap { container in
    container.register(Greeter.self) { EnglishGreeter() }
    container.register(Clock.self, scope: .singleton) { Clock() }
}
let greeter = UnifiedDI.resolve(Greeter.self)
print(greeter?.greet("WeaveDI") ?? "no greeter")
print("singleton shared:", UnifiedDI.resolve(Clock.self) === UnifiedDI.resolve(Clock.self))
