/// What the code would be without a container: `static let` reads and direct initializer calls.
enum HandWrittenContestant {
    static let name = "hand-written"

    static func run(_ settings: Settings, results: inout Results) {
        results.record(.singleton, name, measure(settings) { n in
            for _ in 0..<n { blackHole(HandWritten.logger) }
        })
        results.record(.named, name, measure(settings) { n in
            for _ in 0..<n { blackHole(HandWritten.fileLogger) }
        })
        results.record(.transient, name, measure(settings) { n in
            for _ in 0..<n { blackHole(Leaf()) }
        })
        results.record(.chain, name, measure(settings) { n in
            for _ in 0..<n { blackHole(Top(middle: Middle(leaf: Leaf()))) }
        })
        results.recordScaling(name, measureScaling(settings) { thread, n in
            if thread == 0 {
                for _ in 0..<n { blackHole(HandWritten.threadA) }
            } else {
                for _ in 0..<n { blackHole(HandWritten.threadB) }
            }
        } sameType: { _, n in
            for _ in 0..<n { blackHole(HandWritten.threadA) }
        })
    }
}
