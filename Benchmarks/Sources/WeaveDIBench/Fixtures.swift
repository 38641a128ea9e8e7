// The services every contestant builds and resolves. They are shared by all contestants so each
// one does exactly the same work around the container.

/// A service resolved through its protocol, as apps usually do.
protocol Logging: AnyObject, Sendable {
    func log(_ message: String)
}

final class ConsoleLogger: Logging {
    init() {}
    func log(_ message: String) {}
}

final class FileLogger: Logging {
    init() {}
    func log(_ message: String) {}
}

/// Transient leaf, and the two levels of the 3-level chain above it.
final class Leaf: Sendable {
    let value: Int
    init() { value = 1 }
}

/// Built from runtime arguments (the argument rows).
final class Greeting: Sendable {
    let text: String
    init(text: String, count: Int = 1, loud: Bool = false) { self.text = text }
}

/// The decorator of the `decorated` row: wraps a `Leaf` (class-bound, so no row boxes it).
protocol LeafService: AnyObject, Sendable {}
extension Leaf: LeafService {}
final class LoggedLeaf: LeafService {
    let inner: any LeafService
    init(_ inner: any LeafService) { self.inner = inner }
}

/// Built from two resolved parameters (the autowiring rows): a singleton and a transient.
final class WiredService: Sendable {
    let logger: any Logging
    let leaf: Leaf
    init(logger: any Logging, leaf: Leaf) {
        self.logger = logger
        self.leaf = leaf
    }
}

/// One of the contributions of the `resolve-all-10` row.
protocol BenchPlugin: Sendable {}
extension Leaf: BenchPlugin {}

final class Middle: Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

final class Top: Sendable {
    let middle: Middle
    init(middle: Middle) { self.middle = middle }
}

/// Singletons used by the two-thread test, one per thread so the threads never share a
/// reference count. Each is padded past a cache line: two small objects allocated one after the
/// other share a line, and their reference counts (written by every retain and release) would
/// then bounce between the cores whatever the container does.
final class ThreadServiceA: Sendable {
    let padding = CacheLinePadding()
    init() {}
}

final class ThreadServiceB: Sendable {
    let padding = CacheLinePadding()
    init() {}
}

struct CacheLinePadding: Sendable {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// The one registration the "among 10 000" case resolves.
final class NeedleService: Sendable { init() {} }
/// Never registered: the miss cases resolve it.
final class MissingService: Sendable { init() {} }

/// What the hand-written contestant reads instead of resolving: a `static let`.
enum HandWritten {
    static let logger: any Logging = ConsoleLogger()
    static let fileLogger: any Logging = FileLogger()
    static let threadA = ThreadServiceA()
    static let threadB = ThreadServiceB()

    /// The same instances in mutable storage, handed out by a function that cannot be inlined:
    /// the caller gets an owned reference (one retain, one release), as from any resolution.
    static let returned = ReturnedReferences()
}

final class ReturnedReferences: @unchecked Sendable {
    @exclusivity(unchecked) var logger: (any Logging)? = HandWritten.logger
    @exclusivity(unchecked) var threadA: ThreadServiceA? = HandWritten.threadA
    @exclusivity(unchecked) var threadB: ThreadServiceB? = HandWritten.threadB

    @inline(never) func returnLogger() -> (any Logging)? { logger }
    @inline(never) func returnThreadA() -> ThreadServiceA? { threadA }
    @inline(never) func returnThreadB() -> ThreadServiceB? { threadB }
}

// MARK: Many distinct types

/// A type the registration and bootstrap cases register by the thousand.
protocol Filler: Sendable {
    init()
}

struct FillerRoot: Filler {}
struct FillerLeft<Inner: Filler>: Filler {}
struct FillerRight<Inner: Filler>: Filler {}

private func left<T: Filler>(_: T.Type) -> any Filler.Type { FillerLeft<T>.self }
private func right<T: Filler>(_: T.Type) -> any Filler.Type { FillerRight<T>.self }

/// `count` distinct types (`FillerLeft<FillerRight<…>>`), built once; their metadata is created
/// here, before anything is timed.
func makeFillerTypes(_ count: Int) -> [any Filler.Type] {
    var all: [any Filler.Type] = [FillerRoot.self]
    var level: [any Filler.Type] = [FillerRoot.self]
    while all.count < count {
        var next: [any Filler.Type] = []
        for type in level {
            next.append(left(type))
            next.append(right(type))
        }
        all += next
        level = next
    }
    return Array(all.prefix(count))
}

// MARK: The benchmark's own closure cost

/// The registration and bootstrap cases register 10 000 generic filler types, and a factory
/// closure written inside a generic function (`{ T() }`) captures `T`'s metadata, so each one
/// allocates a context that an app's `{ ServiceImpl() }` never allocates. This measures exactly
/// that: the same closures, made the same way, kept in a pre-sized array. The registration rows
/// subtract its allocations and bytes so they show what the container itself keeps; the JSON
/// keeps it so the raw numbers can be rebuilt.
enum FactoryClosureCost {
    final class Sink {
        var closures: [Any] = []
        init(capacity: Int) { closures.reserveCapacity(capacity) }
    }

    static func measure(_ settings: Settings, fillers: [any Filler.Type]) -> Measurement {
        measureBatch(settings, operations: fillers.count) {
            Sink(capacity: fillers.count)
        } body: { sink in
            for type in fillers { sink.closures.append(makeFactory(type)) }
        }
    }

    private static func makeFactory<T: Filler>(_ type: T.Type) -> Any {
        let factory: @Sendable () throws -> T = { T() }
        return factory
    }
}

extension Measurement {
    /// These numbers less `overhead`'s (the benchmark's own closure allocation).
    func subtracting(_ overhead: Measurement?) -> Measurement {
        guard let overhead else { return self }
        // Time is left as measured (the closure's creation stays in, for every contestant alike):
        // subtracting it would also remove the array append the overhead run adds, and flatter.
        var result = self
        if let allocations = allocationsPerOperation, let closure = overhead.allocationsPerOperation {
            result.allocationsPerOperation = allocations - closure
        }
        if let bytes = retainedBytesPerOperation, let closure = overhead.retainedBytesPerOperation {
            result.retainedBytesPerOperation = bytes - closure
        }
        result.factoryClosureSubtracted = true
        return result
    }
}

/// The request scope case's three services: a unit of work and two repositories sharing it.
final class RequestUnitOfWork: Sendable {
    let value: Int
    init() { value = 1 }
}

final class RequestOrders: Sendable {
    let unitOfWork: RequestUnitOfWork
    init(unitOfWork: RequestUnitOfWork) { self.unitOfWork = unitOfWork }
}

final class RequestPayments: Sendable {
    let unitOfWork: RequestUnitOfWork
    init(unitOfWork: RequestUnitOfWork) { self.unitOfWork = unitOfWork }
}

/// The 1 000 names the named-registration case's type has before the timed registrations (which
/// the generated `registerNames(into:)` make, "named-service-01000" on). Made once, outside the
/// timed code.
enum RegistrationNames {
    static let existing = (0..<1_000).map {
        "named-service-" + String(repeating: "0", count: 5 - String($0).count) + String($0)
    }
}
