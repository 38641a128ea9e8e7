/// What the code would be without a container: `static let` reads and direct initializer calls.
enum HandWrittenContestant {
    static let name = "hand-written"

    static func run(_ settings: Settings, results: inout Results) {
        if settings.wants(.singleton) {
            results.record(
                .singleton, name,
                timed { n in
                    for _ in 0..<n { blackHole(HandWritten.logger) }
                })
        }
        let returned = HandWritten.returned
        if settings.wants(.returnedReference) {
            results.record(
                .returnedReference, name,
                timed { n in
                    for _ in 0..<n { blackHole(returned.returnLogger()) }
                })
        }
        if settings.wants(.named) {
            results.record(
                .named, name,
                timed { n in
                    for _ in 0..<n { blackHole(HandWritten.fileLogger) }
                })
        }
        if settings.wants(.transient) {
            results.record(
                .transient, name,
                timed { n in
                    for _ in 0..<n { blackHole(Leaf()) }
                })
        }
        if settings.wants(.argument1) {
            results.record(
                .argument1, name,
                timed { n in
                    for _ in 0..<n { blackHole(Greeting(text: "hi")) }
                })
        }
        if settings.wants(.argument3) {
            results.record(
                .argument3, name,
                timed { n in
                    for _ in 0..<n { blackHole(Greeting(text: "hi", count: 3, loud: true)) }
                })
        }
        if settings.wants(.resolveAll10) {
            let factories: [@Sendable () -> any BenchPlugin] = Array(repeating: { Leaf() }, count: 10)
            results.record(
                .resolveAll10, name,
                timed { n in
                    for _ in 0..<n { blackHole(factories.map { $0() }.count) }
                })
        }
        for row in [CaseID.autowired, .autowiredByClosure] where settings.wants(row) {
            results.record(
                row, name,
                timed { n in
                    for _ in 0..<n { blackHole(WiredService(logger: HandWritten.logger, leaf: Leaf())) }
                })
        }
        if settings.wants(.decorated) {
            results.record(
                .decorated, name,
                timed { n in
                    for _ in 0..<n { blackHole(LoggedLeaf(Leaf()) as any LeafService) }
                })
        }
        // A context registration is the same initializer call: contexts exist only in a container.
        if settings.wants(.contextTest) {
            results.record(
                .contextTest, name,
                timed { n in
                    for _ in 0..<n { blackHole(Leaf() as any LeafService) }
                })
        }
        // A named transient is the same initializer call: names exist only in a container.
        if settings.wants(.namedTransient) {
            results.record(
                .namedTransient, name,
                timed { n in
                    for _ in 0..<n { blackHole(Leaf()) }
                })
        }
        if settings.wants(.chain) {
            results.record(
                .chain, name,
                timed { n in
                    for _ in 0..<n { blackHole(Top(middle: Middle(leaf: Leaf()))) }
                })
        }
        // A graph of one instance per type: the same three initializer calls.
        if settings.wants(.graphChain) {
            results.record(
                .graphChain, name,
                timed { n in
                    for _ in 0..<n { blackHole(Top(middle: Middle(leaf: Leaf()))) }
                })
        }
        // What a request handler builds without a container: the unit of work and two repositories.
        if settings.wants(.requestScope) {
            results.record(
                .requestScope, name,
                timed { n in
                    for _ in 0..<n {
                        let unitOfWork = RequestUnitOfWork()
                        blackHole(unitOfWork)
                        blackHole(RequestOrders(unitOfWork: unitOfWork))
                        blackHole(RequestPayments(unitOfWork: unitOfWork))
                    }
                })
        }
        // A stored property read: what `@Inject` after its first access should cost.
        let holder = StoredHolder()
        if settings.wants(.injectAfterFirst) {
            results.record(
                .injectAfterFirst, name,
                timed { n in
                    for _ in 0..<n { blackHole(holder.logger) }
                })
        }
        if settings.wants(.injectedRead) {
            results.record(
                .injectedRead, name,
                timed { n in
                    for _ in 0..<n { blackHole(HandWritten.logger) }
                })
        }
        if settings.wantsScaling {
            results.recordScaling(
                name,
                measureScaling(settings) { thread, n in
                    if thread == 0 {
                        for _ in 0..<n { blackHole(HandWritten.threadA) }
                    } else {
                        for _ in 0..<n { blackHole(HandWritten.threadB) }
                    }
                } sameType: { _, n in
                    for _ in 0..<n { blackHole(HandWritten.threadA) }
                })
        }
        if settings.wantsScaling {
            results.recordScaling(
                Contestants.handWrittenReturned,
                measureScaling(settings) { thread, n in
                    if thread == 0 {
                        for _ in 0..<n { blackHole(returned.returnThreadA()) }
                    } else {
                        for _ in 0..<n { blackHole(returned.returnThreadB()) }
                    }
                } sameType: { _, n in
                    for _ in 0..<n { blackHole(returned.returnThreadA()) }
                })
        }
    }
}

/// A class holding its dependency in a stored property.
final class StoredHolder: @unchecked Sendable {
    let logger: any Logging = ConsoleLogger()
}
