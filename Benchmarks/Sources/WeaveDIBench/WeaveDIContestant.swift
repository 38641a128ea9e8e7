import ConcreteFillers
import WeaveDI

/// WeaveDI's side of every case. Run once in default mode and once after
/// `UnifiedRegistry.shared.enableOptimization()`.
enum WeaveDIContestant {
    static func run(_ settings: Settings, fillers: [any Filler.Type], results: inout Results, name: String) {
        // Singleton through its protocol, in a container holding just that registration.
        let singleton = Container()
        singleton.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
        if settings.wants(.singleton) {
            results.record(
                .singleton, name,
                timed { n in
                    for _ in 0..<n { blackHole(singleton.resolve((any Logging).self)) }
                })
        }

        // Named vs unnamed: the same container holds both.
        let named = Container()
        named.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
        named.register("file", (any Logging).self, scope: .singleton) { FileLogger() }
        if settings.wants(.named) {
            results.record(
                .named, name,
                timed { n in
                    for _ in 0..<n { blackHole(named.resolve("file", (any Logging).self)) }
                })
        }

        // Transient, and a chain of three transients each resolving the next.
        let transient = Container()
        transient.register(Leaf.self) { Leaf() }
        transient.register(Middle.self) { Middle(leaf: try transient.resolveOrThrow(Leaf.self)) }
        transient.register(Top.self) { Top(middle: try transient.resolveOrThrow(Middle.self)) }
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

        // The same chain with every level graph-scoped: one graph per outermost resolution.
        let graph = Container()
        graph.register(Leaf.self, scope: .graph) { Leaf() }
        graph.register(Middle.self, scope: .graph) { Middle(leaf: try graph.resolveOrThrow(Leaf.self)) }
        graph.register(Top.self, scope: .graph) { Top(middle: try graph.resolveOrThrow(Middle.self)) }
        if settings.wants(.graphChain) {
            results.record(
                .graphChain, name,
                timed { n in
                    for _ in 0..<n { blackHole(graph.resolve(Top.self)) }
                })
        }

        // Runtime arguments, contributions and a decorator: each in a container of its own.
        let peers = Container()
        peers.register(Greeting.self) { (text: String) in Greeting(text: text) }
        peers.register("three", Greeting.self) { (text: String, count: Int, loud: Bool) in
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
                    for _ in 0..<n { blackHole(peers.resolve("three", Greeting.self, arguments: "hi", 3, true)) }
                })
        }
        if settings.wants(.resolveAll10) {
            for _ in 0..<10 { peers.register(into: (any BenchPlugin).self) { Leaf() } }
            results.record(
                .resolveAll10, name,
                timed { n in
                    for _ in 0..<n { blackHole(peers.resolveAll((any BenchPlugin).self).count) }
                })
        }
        // Autowired by initializer, and the same with a hand-written closure: each in its container.
        if settings.wants(.autowired) {
            let wired = Container()
            wired.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
            wired.register(Leaf.self) { Leaf() }
            wired.register(WiredService.self, initializer: WiredService.init(logger:leaf:))
            results.record(
                .autowired, name,
                timed { n in
                    for _ in 0..<n { blackHole(wired.resolve(WiredService.self)) }
                })
        }
        if settings.wants(.autowiredByClosure) {
            let wired = Container()
            wired.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
            wired.register(Leaf.self) { Leaf() }
            wired.register(WiredService.self) {
                WiredService(
                    logger: try wired.resolveOrThrow((any Logging).self), leaf: try wired.resolveOrThrow(Leaf.self))
            }
            results.record(
                .autowiredByClosure, name,
                timed { n in
                    for _ in 0..<n { blackHole(wired.resolve(WiredService.self)) }
                })
        }
        // Only when asked for: a decorator sends every factory run in the process through the
        // path that looks decorators up (see the Performance article).
        if settings.wants(.decorated) {
            let decorated = Container()
            decorated.register((any LeafService).self) { Leaf() }
            decorated.decorate((any LeafService).self) { LoggedLeaf($0) }
            results.record(
                .decorated, name,
                timed { n in
                    for _ in 0..<n { blackHole(decorated.resolve((any LeafService).self)) }
                })
        }

        if settings.wants(.contextTest) {
            let contexts = Container()
            contexts.register((any LeafService).self) { Leaf() }
            contexts.register((any LeafService).self, in: .test) { Leaf() }
            results.record(
                .contextTest, name,
                timed { n in
                    // Forced once per batch: each resolution reads the task's forcing.
                    Container.withContexts([.test]) {
                        for _ in 0..<n { blackHole(contexts.resolve((any LeafService).self)) }
                    }
                })
        }

        // Named vs unnamed transient: a container holding both, as for the named singleton.
        let namedTransient = Container()
        namedTransient.register(Leaf.self) { Leaf() }
        namedTransient.register("leaf", Leaf.self) { Leaf() }
        if settings.wants(.namedTransient) {
            results.record(
                .namedTransient, name,
                timed { n in
                    for _ in 0..<n { blackHole(namedTransient.resolve("leaf", Leaf.self)) }
                })
        }

        // A request: begin a request scope, bind it, resolve three request-scoped services (the
        // two repositories resolve the unit of work, which the scope hands out once), end it.
        let server = Container()
        registerRequestScoped(in: server)
        if settings.wants(.requestScope) {
            results.record(
                .requestScope, name,
                timed { n in
                    for _ in 0..<n { runRequest(in: server) }
                })
        }

        // The same singleton among one registration and among 10 000.
        let one = Container()
        one.register(NeedleService.self, scope: .singleton) { NeedleService() }
        if settings.wants(.amongOne) {
            results.record(
                .amongOne, name,
                timed { n in
                    for _ in 0..<n { blackHole(one.resolve(NeedleService.self)) }
                })
        }
        let many = Container()
        for type in fillers.dropLast() { registerFiller(type, in: many) }
        many.register(NeedleService.self, scope: .singleton) { NeedleService() }
        if settings.wants(.among10k) {
            results.record(
                .among10k, name,
                timed { n in
                    for _ in 0..<n { blackHole(many.resolve(NeedleService.self)) }
                })
        }

        // A miss among 2 000 and among 100 000 registrations (10 000 types, then Factory keys,
        // each a key of its own), with and without an `onResolutionError` hook that reads nothing.
        let missCases: [(registrations: Int, plain: CaseID, hooked: CaseID)] = [
            (2_000, .miss2k, .missHook2k), (100_000, .miss100k, .missHook100k),
        ]
        for (registrations, plain, hooked) in missCases where settings.wants(plain) || settings.wants(hooked) {
            let container = Container()
            for type in fillers.prefix(registrations) { registerFiller(type, in: container) }
            for index in 0..<max(0, registrations - fillers.count) {
                Factory { index }.register(in: container) { index }
            }
            if settings.wants(plain) {
                results.record(
                    plain, name,
                    timed { n in
                        for _ in 0..<n { blackHole(container.resolve(MissingService.self)) }
                    })
            }
            if settings.wants(hooked) {
                results.record(
                    hooked, name,
                    timed { n in
                        let token = UnifiedDI.onResolutionError { _, _ in }
                        for _ in 0..<n { blackHole(container.resolve(MissingService.self)) }
                        token.cancel()
                    })
            }
        }

        // Registration: 10 000 distinct types into a fresh container per round, as an app writes
        // it (generated code, see Generated/), then from one generic function.
        if settings.wants(.registration) {
            results.record(
                .registration, name,
                batch(settings, operations: WeaveDIConcreteFillers.count) {
                    Container()
                } body: { container in
                    WeaveDIConcreteFillers.register(into: container)
                })
        }
        // Named registration: 10 000 new names on a type that already has 1 000 (registered in
        // the untimed setup), written as an app writes them (generated code, like the concrete
        // types above), against the concrete-type registration.
        if settings.wants(.namedRegistration) {
            results.record(
                .namedRegistration, name,
                batch(settings, operations: WeaveDIConcreteFillers.namedCount) {
                    let container = Container()
                    registerExistingNames(in: container)
                    return container
                } body: { container in
                    WeaveDIConcreteFillers.registerNames(into: container)
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

        // Bootstrap: make 10 000 modules (one per concrete type) and register them into a fresh
        // container.
        if settings.wants(.bootstrap) {
            results.record(
                .bootstrap, name,
                batch(settings, operations: WeaveDIConcreteFillers.count) {
                    Container()
                } body: { container in
                    for module in WeaveDIConcreteFillers.modules() { container.register(module) }
                })
        }

        // Two threads: each resolves its own singleton, then both resolve the same one.
        let threads = Container()
        threads.register(ThreadServiceA.self, scope: .singleton) { ThreadServiceA() }
        threads.register(ThreadServiceB.self, scope: .singleton) { ThreadServiceB() }
        if settings.wantsScaling {
            results.recordScaling(
                name,
                measureScaling(settings) { thread, n in
                    if thread == 0 {
                        for _ in 0..<n { blackHole(threads.resolve(ThreadServiceA.self)) }
                    } else {
                        for _ in 0..<n { blackHole(threads.resolve(ThreadServiceB.self)) }
                    }
                } sameType: { _, n in
                    for _ in 0..<n { blackHole(threads.resolve(ThreadServiceA.self)) }
                })
        }

        // Property wrappers resolve from `Container.shared`: register there.
        Container.shared.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
        let injectHolder = InjectHolder()
        _ = injectHolder.logger // the first access resolves; the case measures the ones after
        if settings.wants(.injectAfterFirst) {
            results.record(
                .injectAfterFirst, name,
                timed { n in
                    for _ in 0..<n { blackHole(injectHolder.logger) }
                })
        }
        let injectedHolder = InjectedHolder()
        _ = injectedHolder.logger
        if settings.wants(.injectedRead) {
            results.record(
                .injectedRead, name,
                timed { n in
                    for _ in 0..<n { blackHole(injectedHolder.logger) }
                })
        }
        BridgeCases.run(settings, results: &results, name: name)
    }

    fileprivate static func registerFiller<T: Filler>(_ type: T.Type, in container: Container) {
        container.register(type) { T() }
    }

    /// Gives the named-registration case's type its first 1 000 names.
    fileprivate static func registerExistingNames(in container: Container) {
        for name in RegistrationNames.existing {
            container.register(name, ConcreteFiller00000.self) { ConcreteFiller00000() }
        }
    }

}

extension WeaveDIContestant {
    /// The request scope case's registrations.
    static func registerRequestScoped(in container: Container) {
        container.register(RequestUnitOfWork.self, scope: .request) { RequestUnitOfWork() }
        container.register(RequestOrders.self, scope: .request) {
            RequestOrders(unitOfWork: try container.resolveOrThrow(RequestUnitOfWork.self))
        }
        container.register(RequestPayments.self, scope: .request) {
            RequestPayments(unitOfWork: try container.resolveOrThrow(RequestUnitOfWork.self))
        }
    }

    /// One request of the request scope case.
    @inline(__always)
    static func runRequest(in container: Container) {
        let scope = container.beginScope(.request)
        container.withScope(scope) {
            blackHole(container.resolve(RequestUnitOfWork.self))
            blackHole(container.resolve(RequestOrders.self))
            blackHole(container.resolve(RequestPayments.self))
        }
        scope.end()
    }
}

extension WeaveDIContestant {
    static let profiledCases = [
        "singleton", "named", "transient", "named-transient", "chain", "among-10000", "registration",
        "named-registration", "registration-generic", "inject-after-first", "injected-read", "request-scope",
    ]

    /// Runs one case `iterations` times in a plain loop, for instruction-level profiling.
    static func profile(_ name: String, iterations: Int) -> Bool {
        let container = Container()
        container.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
        container.register("file", (any Logging).self, scope: .singleton) { FileLogger() }
        container.register(Leaf.self) { Leaf() }
        container.register("leaf", Leaf.self) { Leaf() }
        container.register(Middle.self) { Middle(leaf: try container.resolveOrThrow(Leaf.self)) }
        container.register(Top.self) { Top(middle: try container.resolveOrThrow(Middle.self)) }
        container.register(NeedleService.self, scope: .singleton) { NeedleService() }
        if name == "registration" {
            // `iterations` rounds of 10 000 concrete registrations (kept until the end).
            var containers: [Container] = []
            for _ in 0..<max(1, iterations / WeaveDIConcreteFillers.count) {
                let fresh = Container()
                WeaveDIConcreteFillers.register(into: fresh)
                containers.append(fresh)
            }
            withExtendedLifetime(containers) {}
            return true
        }
        if name == "named-registration" {
            // `iterations` new names, 10 000 per container whose type already has 1 000 names
            // (registered before the loop; containers kept until the end).
            var containers: [Container] = []
            for _ in 0..<max(1, iterations / WeaveDIConcreteFillers.namedCount) {
                let fresh = Container()
                registerExistingNames(in: fresh)
                containers.append(fresh)
            }
            for fresh in containers { WeaveDIConcreteFillers.registerNames(into: fresh) }
            withExtendedLifetime(containers) {}
            return true
        }
        if name == "registration-generic" {
            // `iterations` registrations, in containers of 10 000 (kept until the end, so tearing
            // them down is not profiled with the registrations).
            let fillers = makeFillerTypes(10_000)
            var remaining = iterations
            var containers: [Container] = []
            while remaining > 0 {
                let fresh = Container()
                for type in fillers.prefix(remaining) { registerFiller(type, in: fresh) }
                containers.append(fresh)
                remaining -= 10_000
            }
            withExtendedLifetime(containers) {}
            return true
        }
        if name == "request-scope" {
            registerRequestScoped(in: container)
            for _ in 0..<iterations { runRequest(in: container) }
            return true
        }
        if name == "among-10000" {
            for type in makeFillerTypes(9_999) { registerFiller(type, in: container) }
        }
        if name == "inject-after-first" || name == "injected-read" {
            Container.shared.register((any Logging).self, scope: .singleton) { ConsoleLogger() }
            let inject = InjectHolder()
            let injected = InjectedHolder()
            if name == "inject-after-first" {
                for _ in 0..<iterations { blackHole(inject.logger) }
            } else {
                for _ in 0..<iterations { blackHole(injected.logger) }
            }
            return true
        }
        switch name {
        case "singleton": for _ in 0..<iterations { blackHole(container.resolve((any Logging).self)) }
        case "named": for _ in 0..<iterations { blackHole(container.resolve("file", (any Logging).self)) }
        case "transient": for _ in 0..<iterations { blackHole(container.resolve(Leaf.self)) }
        case "named-transient": for _ in 0..<iterations { blackHole(container.resolve("leaf", Leaf.self)) }
        case "chain": for _ in 0..<iterations { blackHole(container.resolve(Top.self)) }
        case "among-10000": for _ in 0..<iterations { blackHole(container.resolve(NeedleService.self)) }
        default: return false
        }
        return true
    }
}

/// A class using `@Inject`, as apps write it.
final class InjectHolder: @unchecked Sendable {
    @Inject var logger: (any Logging)?
}

/// An `InjectedValues` key with a live value, as seed 003 declares them.
struct BenchLoggerKey: InjectedKey {
    static let liveValue: any Logging = ConsoleLogger()
}

extension InjectedValues {
    var benchLogger: any Logging {
        get { self[BenchLoggerKey.self] }
        set { self[BenchLoggerKey.self] = newValue }
    }
}

/// A class using `@Injected(\.key)`, as apps write it.
final class InjectedHolder: @unchecked Sendable {
    @Injected(\.benchLogger) var logger
}
