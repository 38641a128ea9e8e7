import WeaveDI

protocol Greeter: Sendable { func greet(_ name: String) -> String }
final class Clock: Sendable { let started = ContinuousClock.now }
struct EnglishGreeter: Greeter {
    let clock: Clock
    func greet(_ name: String) -> String { "Hello, \(name)!" }
}

await WeaveDI.Container.bootstrap { container in
    container.register(Clock.self, scope: .singleton) { Clock() }
    // Inside a factory, resolve with `try resolveOrThrow`: a missing dependency or a cycle fails
    // this resolution with a DIError that names it, instead of crashing.
    container.register(Greeter.self) { EnglishGreeter(clock: try container.resolveOrThrow(Clock.self)) }
}
do {
    let greeter = try UnifiedDI.resolveOrThrow(Greeter.self)
    print(greeter.greet("WeaveDI"))
    print("singleton shared:", UnifiedDI.resolve(Clock.self) === UnifiedDI.resolve(Clock.self))
} catch {
    print("error:", error)
}
