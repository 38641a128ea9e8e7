import Foundation
import Testing

@testable import WeaveDI
@testable import WeaveDICore

/// A one-shot gate tasks can await (suspending, not blocking) until the test opens it.
actor AsyncGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var waiterCount = 0

    func wait() async {
        if isOpen { return }
        waiterCount += 1
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }

    /// Suspends until `count` tasks wait here.
    func untilWaiters(_ count: Int) async {
        while waiterCount < count { await Task.yield() }
    }
}

/// Polls `condition` (yielding) until it holds, or until the test's time limit cancels the test:
/// then it records a failure and returns, so a condition that never holds fails the test instead
/// of spinning after it (which kept the test process from exiting).
func eventually(_ condition: @Sendable () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    while !condition() {
        if Task.isCancelled {
            Issue.record("the condition never held", sourceLocation: sourceLocation)
            return
        }
        await Task.yield()
    }
}

final class AsyncService: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

protocol AsyncDatabase: Sendable { var name: String { get } }
final class AsyncDatabaseImpl: AsyncDatabase {
    let name: String
    init(name: String) async {
        await Task.yield() // a real suspension point, as an opening database has
        self.name = name
    }
}
