import Foundation
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

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

/// Runs `body` on `threads` threads at once, starting them together, and waits for all of them.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    let capture = LogCapture.current // the threads log into the calling test's capture
    for index in 0..<threads {
        group.enter()
        Thread {
            start.wait()
            withCurrentLogCapture(capture) { body(index) }
            group.leave()
        }.start()
    }
    for _ in 0..<threads { start.signal() }
    group.wait()
}
