import ConcreteFillers
import Swinject

/// Swinject 2.10.0's side of every case, written the way its README does it.
enum SwinjectContestant {
    static let name = "Swinject"

    static func run(_ settings: Settings, fillers: [any Filler.Type], results: inout Results) {
        let singleton = Container()
        singleton.register((any Logging).self) { _ in ConsoleLogger() }.inObjectScope(.container)
        if settings.wants(.singleton) {
            results.record(
                .singleton, name,
                timed { n in
                    for _ in 0..<n { blackHole(singleton.resolve((any Logging).self)) }
                })
        }

        let named = Container()
        named.register((any Logging).self) { _ in ConsoleLogger() }.inObjectScope(.container)
        named.register((any Logging).self, name: "file") { _ in FileLogger() }.inObjectScope(.container)
        if settings.wants(.named) {
            results.record(
                .named, name,
                timed { n in
                    for _ in 0..<n { blackHole(named.resolve((any Logging).self, name: "file")) }
                })
        }

        // Runtime arguments, as Swinject's README registers them.
        let peers = Container()
        peers.register(Greeting.self) { (_: Resolver, text: String) in Greeting(text: text) }
        peers.register(Greeting.self, name: "three") { (_: Resolver, text: String, count: Int, loud: Bool) in
            Greeting(text: text, count: count, loud: loud)
        }
        if settings.wants(.argument1) {
            results.record(
                .argument1, name,
                timed { n in
                    for _ in 0..<n { blackHole(peers.resolve(Greeting.self, argument: "hi")) }
                })
        }
        if settings.wants(.argument3) {
            results.record(
                .argument3, name,
                timed { n in
                    for _ in 0..<n { blackHole(peers.resolve(Greeting.self, name: "three", arguments: "hi", 3, true)) }
                })
        }

        // What SwinjectAutoregistration's `autoregister` expands to: a factory resolving each parameter.
        if settings.wants(.autowired) || settings.wants(.autowiredByClosure) {
            let wired = Container()
            wired.register((any Logging).self) { _ in ConsoleLogger() }.inObjectScope(.container)
            wired.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
            wired.register(WiredService.self) { r in
                WiredService(logger: r.resolve((any Logging).self)!, leaf: r.resolve(Leaf.self)!)
            }.inObjectScope(.transient)
            for row in [CaseID.autowired, .autowiredByClosure] where settings.wants(row) {
                results.record(
                    row, name,
                    timed { n in
                        for _ in 0..<n { blackHole(wired.resolve(WiredService.self)) }
                    })
            }
        }

        let transient = Container()
        transient.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
        transient.register(Middle.self) { r in Middle(leaf: r.resolve(Leaf.self)!) }.inObjectScope(.transient)
        transient.register(Top.self) { r in Top(middle: r.resolve(Middle.self)!) }.inObjectScope(.transient)
        if settings.wants(.transient) {
            results.record(
                .transient, name,
                timed { n in
                    for _ in 0..<n { blackHole(transient.resolve(Leaf.self)) }
                })
        }
        if settings.wants(.chain) {
            results.record(
                .chain, name,
                timed { n in
                    for _ in 0..<n { blackHole(transient.resolve(Top.self)) }
                })
        }

        // Swinject's default object scope is `.graph`: named here to say so.
        let graph = Container()
        graph.register(Leaf.self) { _ in Leaf() }.inObjectScope(.graph)
        graph.register(Middle.self) { r in Middle(leaf: r.resolve(Leaf.self)!) }.inObjectScope(.graph)
        graph.register(Top.self) { r in Top(middle: r.resolve(Middle.self)!) }.inObjectScope(.graph)
        if settings.wants(.graphChain) {
            results.record(
                .graphChain, name,
                timed { n in
                    for _ in 0..<n { blackHole(graph.resolve(Top.self)) }
                })
        }

        let namedTransient = Container()
        namedTransient.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
        namedTransient.register(Leaf.self, name: "leaf") { _ in Leaf() }.inObjectScope(.transient)
        if settings.wants(.namedTransient) {
            results.record(
                .namedTransient, name,
                timed { n in
                    for _ in 0..<n { blackHole(namedTransient.resolve(Leaf.self, name: "leaf")) }
                })
        }

        let one = Container()
        one.register(NeedleService.self) { _ in NeedleService() }.inObjectScope(.container)
        if settings.wants(.amongOne) {
            results.record(
                .amongOne, name,
                timed { n in
                    for _ in 0..<n { blackHole(one.resolve(NeedleService.self)) }
                })
        }
        let many = Container()
        for type in fillers.dropLast() { registerFiller(type, in: many) }
        many.register(NeedleService.self) { _ in NeedleService() }.inObjectScope(.container)
        if settings.wants(.among10k) {
            results.record(
                .among10k, name,
                timed { n in
                    for _ in 0..<n { blackHole(many.resolve(NeedleService.self)) }
                })
        }

        if settings.wants(.registration) {
            results.record(
                .registration, name,
                batch(settings, operations: fillers.count) {
                    Container()
                } body: { container in
                    SwinjectConcreteFillers.register(into: container)
                })
        }
        if settings.wants(.namedRegistration) {
            results.record(
                .namedRegistration, name,
                batch(settings, operations: WeaveDIConcreteFillers.namedCount) {
                    let container = Container()
                    for name in RegistrationNames.existing {
                        container.register(ConcreteFiller00000.self, name: name) { _ in ConcreteFiller00000() }
                    }
                    return container
                } body: { container in
                    SwinjectConcreteFillers.registerNames(into: container)
                })
        }
        if settings.wants(.registrationGeneric) {
            results.record(
                .registrationGeneric, name,
                batch(settings, operations: fillers.count) {
                    Container()
                } body: { container in
                    for type in fillers { registerFiller(type, in: container) }
                })
        }

        // Swinject's modules are assemblies: one per type, applied by an Assembler.
        if settings.wants(.bootstrap) {
            results.record(
                .bootstrap, name,
                batch(settings, operations: fillers.count) {
                    Container()
                } body: { container in
                    _ = Assembler(SwinjectConcreteFillers.assemblies(), container: container)
                })
        }

        // Swinject resolves concurrently only through `synchronize()`.
        let base = Container()
        base.register(ThreadServiceA.self) { _ in ThreadServiceA() }.inObjectScope(.container)
        base.register(ThreadServiceB.self) { _ in ThreadServiceB() }.inObjectScope(.container)
        let threads = UncheckedResolver(base.synchronize())
        if settings.wantsScaling {
            results.recordScaling(
                name,
                measureScaling(settings) { thread, n in
                    if thread == 0 {
                        for _ in 0..<n { blackHole(threads.resolver.resolve(ThreadServiceA.self)) }
                    } else {
                        for _ in 0..<n { blackHole(threads.resolver.resolve(ThreadServiceB.self)) }
                    }
                } sameType: { _, n in
                    for _ in 0..<n { blackHole(threads.resolver.resolve(ThreadServiceA.self)) }
                })
        }
    }

    fileprivate static func registerFiller<T: Filler>(_ type: T.Type, in container: Container) {
        container.register(type) { _ in T() }
    }

}

/// A synchronized Swinject resolver is safe to share between threads; its type does not say so.
private struct UncheckedResolver: @unchecked Sendable {
    let resolver: any Resolver
    init(_ resolver: any Resolver) { self.resolver = resolver }
}

extension SwinjectContestant {
    /// `iterations` registrations into containers of 10 000, for instruction-level profiling.
    static func profileRegistration(iterations: Int) {
        var containers: [Container] = []
        for _ in 0..<max(1, iterations / 10_000) {
            let fresh = Container()
            SwinjectConcreteFillers.register(into: fresh)
            containers.append(fresh)
        }
        withExtendedLifetime(containers) {}
    }
}
