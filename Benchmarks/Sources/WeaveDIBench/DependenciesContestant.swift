import Dependencies

/// swift-dependencies 1.17.1's side: `@Dependency` reads of keys with live values. It has no
/// registration step, no named values and no transient lifetime; a transient is written the
/// library's way, as a dependency holding a factory closure, and a chain as factories that read
/// their own dependencies.
enum DependenciesContestant {
    static let name = "swift-dependencies"

    static func run(_ settings: Settings, results: inout Results) {
        let model = Model()
        _ = model.logger
        if settings.wants(.singleton) {
            results.record(
                .singleton, name,
                timed { n in
                    for _ in 0..<n { blackHole(model.logger) }
                })
        }
        // Its `@Dependency(\.key)` read is the counterpart of `@Injected(\.key)`.
        if settings.wants(.injectedRead) {
            results.record(
                .injectedRead, name,
                timed { n in
                    for _ in 0..<n { blackHole(model.logger) }
                })
        }
        // The plain key the bridged `@Dependency` read is compared with, in the same row.
        if settings.wants(.bridgedDependencyRead) {
            results.record(
                .bridgedDependencyRead, name,
                timed { n in
                    for _ in 0..<n { blackHole(model.logger) }
                })
        }
        if settings.wants(.bridgedDependencyReadAfterOverride) {
            results.record(
                .bridgedDependencyReadAfterOverride, name,
                timed { n in
                    for _ in 0..<n { blackHole(model.logger) }
                })
        }
        if settings.wants(.transient) {
            results.record(
                .transient, name,
                timed { n in
                    for _ in 0..<n { blackHole(model.leafFactory.make()) }
                })
        }
        if settings.wants(.chain) {
            results.record(
                .chain, name,
                timed { n in
                    for _ in 0..<n { blackHole(model.topFactory.make()) }
                })
        }

        if settings.wantsScaling {
            results.recordScaling(
                name,
                measureScaling(settings) { thread, n in
                    if thread == 0 {
                        for _ in 0..<n { blackHole(model.threadA) }
                    } else {
                        for _ in 0..<n { blackHole(model.threadB) }
                    }
                } sameType: { _, n in
                    for _ in 0..<n { blackHole(model.threadA) }
                })
        }
    }
}

/// A feature model holding its dependencies, as apps using the library write it.
private struct Model: Sendable {
    @Dependency(\.benchLogger) var logger
    @Dependency(\.leafFactory) var leafFactory
    @Dependency(\.topFactory) var topFactory
    @Dependency(\.threadA) var threadA
    @Dependency(\.threadB) var threadB
}

struct LeafFactory: Sendable { var make: @Sendable () -> Leaf }
struct MiddleFactory: Sendable { var make: @Sendable () -> Middle }
struct TopFactory: Sendable { var make: @Sendable () -> Top }

private enum LoggerKey: DependencyKey {
    static let liveValue: any Logging = ConsoleLogger()
}

private enum LeafFactoryKey: DependencyKey {
    static let liveValue = LeafFactory { Leaf() }
}

private enum MiddleFactoryKey: DependencyKey {
    static let liveValue = MiddleFactory {
        @Dependency(\.leafFactory) var leafFactory
        return Middle(leaf: leafFactory.make())
    }
}

private enum TopFactoryKey: DependencyKey {
    static let liveValue = TopFactory {
        @Dependency(\.middleFactory) var middleFactory
        return Top(middle: middleFactory.make())
    }
}

private enum ThreadAKey: DependencyKey {
    static let liveValue = ThreadServiceA()
}

private enum ThreadBKey: DependencyKey {
    static let liveValue = ThreadServiceB()
}

extension DependencyValues {
    var benchLogger: any Logging {
        get { self[LoggerKey.self] }
        set { self[LoggerKey.self] = newValue }
    }

    var leafFactory: LeafFactory {
        get { self[LeafFactoryKey.self] }
        set { self[LeafFactoryKey.self] = newValue }
    }

    var middleFactory: MiddleFactory {
        get { self[MiddleFactoryKey.self] }
        set { self[MiddleFactoryKey.self] = newValue }
    }

    var topFactory: TopFactory {
        get { self[TopFactoryKey.self] }
        set { self[TopFactoryKey.self] = newValue }
    }

    var threadA: ThreadServiceA {
        get { self[ThreadAKey.self] }
        set { self[ThreadAKey.self] = newValue }
    }

    var threadB: ThreadServiceB {
        get { self[ThreadBKey.self] }
        set { self[ThreadBKey.self] = newValue }
    }
}
