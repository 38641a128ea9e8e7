import Foundation
@testable import WeaveDI

/// Runs `body` with a fresh container as `Container.shared`, so parallel tests never share
/// registrations.
func withFreshContainer<R>(_ body: (Container) throws -> R) rethrows -> R {
    let container = Container()
    return try Container.withShared(container) { try body(container) }
}

/// The async form of ``withFreshContainer(_:)``.
func withFreshContainer<R>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Container) async throws -> R
) async rethrows -> R {
    let container = Container()
    return try await Container.withShared(container, isolation: isolation) { try await body(container) }
}

/// A thread-safe counter for factories and defaults.
final class InvocationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int { lock.withLock { count += 1; return count } }
    var value: Int { lock.withLock { count } }
}

/// Runs `body` on `threads` threads at once, starting them together, and waits for all of them.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        Thread {
            start.wait()
            body(index)
            group.leave()
        }.start()
    }
    for _ in 0..<threads { start.signal() }
    group.wait()
}

/// Collects values from many threads.
final class ThreadSafeCollector<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
}
