import Testing
import WeaveDI
import WeaveDICore
import WeaveDITestSupport

final class CaptureLeftA: Sendable { init(_ b: CaptureLeftB?) {} }
final class CaptureLeftB: Sendable { init(_ a: CaptureLeftA?) {} }
final class CaptureRightA: Sendable { init(_ b: CaptureRightB?) {} }
final class CaptureRightB: Sendable { init(_ a: CaptureRightA?) {} }

/// Registers a two-step cycle between `A` and `B` in a container of its own and resolves it.
private func provokeCycle<A: AnyObject, B: AnyObject>(
    _ a: A.Type, _ b: B.Type,
    make: (Container) -> (@Sendable () throws -> A, @Sendable () throws -> B)
) {
    let container = Container()
    let (makeA, makeB) = make(container)
    container.register(A.self) { try makeA() }
    container.register(B.self) { try makeB() }
    _ = container.resolve(A.self)
}

@Suite("Test log capture: per test, across tasks and threads, no crosstalk")
struct LogCaptureTests {
    @Test("two captures in parallel tasks each hear only their own task's failures")
    func parallelCapturesDoNotSeeEachOther() async {
        let left = LogCapture()
        let right = LogCapture()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                LogCapture.$current.withValue(left) {
                    for _ in 0..<50 {
                        provokeCycle(CaptureLeftA.self, CaptureLeftB.self) { c in
                            (
                                { CaptureLeftA(try c.resolveOrThrow(CaptureLeftB.self)) },
                                { CaptureLeftB(try c.resolveOrThrow(CaptureLeftA.self)) }
                            )
                        }
                    }
                }
            }
            group.addTask {
                LogCapture.$current.withValue(right) {
                    for _ in 0..<50 {
                        provokeCycle(CaptureRightA.self, CaptureRightB.self) { c in
                            (
                                { CaptureRightA(try c.resolveOrThrow(CaptureRightB.self)) },
                                { CaptureRightB(try c.resolveOrThrow(CaptureRightA.self)) }
                            )
                        }
                    }
                }
            }
        }
        #expect(left.entries.count == 50)
        #expect(right.entries.count == 50)
        #expect(left.entries.allSatisfy { $0.severity == .error && $0.message.contains("CaptureLeftA") })
        #expect(right.entries.allSatisfy { $0.severity == .error && $0.message.contains("CaptureRightA") })
    }

    @Test("the trait gives the test a capture; threads the test starts log into it", .capturesLog)
    func traitAndThreads() {
        let capture = LogCapture.current
        #expect(capture != nil)
        _ = runOnThreads(
            (0..<4).map { _ in
                {
                    provokeCycle(CaptureLeftA.self, CaptureLeftB.self) { c in
                        (
                            { CaptureLeftA(try c.resolveOrThrow(CaptureLeftB.self)) },
                            { CaptureLeftB(try c.resolveOrThrow(CaptureLeftA.self)) }
                        )
                    }
                }
            })
        #expect(capturedProblems(mentioning: "Circular dependency: WeaveDITests.CaptureLeftA").count == 4)
    }

    @Test("each test case of a suite with the trait starts with an empty capture", .capturesLog, arguments: [1, 2])
    func freshCapturePerCase(_ n: Int) {
        #expect(capturedLog.isEmpty)
        for _ in 0..<n {
            provokeCycle(CaptureRightA.self, CaptureRightB.self) { c in
                (
                    { CaptureRightA(try c.resolveOrThrow(CaptureRightB.self)) },
                    { CaptureRightB(try c.resolveOrThrow(CaptureRightA.self)) }
                )
            }
        }
        #expect(capturedLog.count == n)
    }
}
