/// What the code would be without a container: `static let` reads and direct initializer calls.
enum HandWrittenContestant {
    static let name = "hand-written"

    static func run(_ settings: Settings, results: inout Results) {
        if settings.wants(.singleton) { results.record(.singleton, name, measure(settings) { n in
            for _ in 0..<n { blackHole(HandWritten.logger) }
        }) }
        if settings.wants(.named) { results.record(.named, name, measure(settings) { n in
            for _ in 0..<n { blackHole(HandWritten.fileLogger) }
        }) }
        if settings.wants(.transient) { results.record(.transient, name, measure(settings) { n in
            for _ in 0..<n { blackHole(Leaf()) }
        }) }
        if settings.wants(.chain) { results.record(.chain, name, measure(settings) { n in
            for _ in 0..<n { blackHole(Top(middle: Middle(leaf: Leaf()))) }
        }) }
        if settings.wantsScaling { results.recordScaling(name, measureScaling(settings) { thread, n in
            if thread == 0 {
                for _ in 0..<n { blackHole(HandWritten.threadA) }
            } else {
                for _ in 0..<n { blackHole(HandWritten.threadB) }
            }
        } sameType: { _, n in
            for _ in 0..<n { blackHole(HandWritten.threadA) }
        }) }
    }
}
