import Testing
import WeaveDICore

// Tests that provoke failures on purpose (cycles, throwing factories, misses) capture WeaveDI's log
// instead of printing it: a green `swift test` prints no error or warning line, and such a test can
// assert on what was logged. Each test case gets a capture of its own, bound task-locally, so tests
// running in parallel never see each other's messages.

/// Captures WeaveDI's log for each test it applies to (on a suite: each test in it).
public struct CapturesLog: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope binds nothing: each of its test cases gets a fresh capture.
        guard testCase != nil else { return try await function() }
        try await LogCapture.$current.withValue(LogCapture()) { try await function() }
    }
}

extension Trait where Self == CapturesLog {
    /// WeaveDI's log goes to a capture of the test's own (``capturedLog``) instead of swift-log.
    public static var capturesLog: Self { CapturesLog() }
}

/// What WeaveDI logged in the current test so far (the test, or its suite, has `.capturesLog`).
package var capturedLog: [LogCapture.Entry] { LogCapture.current?.entries ?? [] }

/// The captured warnings and errors that mention `text`.
package func capturedProblems(mentioning text: String) -> [LogCapture.Entry] {
    capturedLog.filter { $0.severity >= .warning && $0.message.contains(text) }
}

/// Runs `body` with the current test's capture bound: for threads and detached tasks a test
/// starts, which do not inherit task-local values.
package func withCurrentLogCapture<R>(_ capture: LogCapture?, _ body: () throws -> R) rethrows -> R {
    try LogCapture.$current.withValue(capture) { try body() }
}
