import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

/// `reset()` racing `registerAllServices()`: a reset forces a run again, never an endless loop of
/// runs, and a resolution begun after a reset still sees everything the run registers.
@Suite("AutoRegistering while another thread resets", .serialized, .capturesLog)
struct ResetDuringRunTests {
    /// Waits (a bounded while) until `count` threads wait for the run in progress.
    private func waitersOfTheRun(_ count: Int) -> Bool {
        let deadline = Date() + 10
        while BuildCoordinator.shared.waiterCount(forJob: "AutoRegistering.registerAllServices()") < count {
            if Date() > deadline { return false }
            usleep(200)
        }
        return true
    }

    @Test("a reset during every run: the resolution that ran it goes on; the next one runs it again")
    func resetDuringEveryRun() {
        let container = runLog.owned()
        let resets = Counter()
        let stop = LockedValue(false)
        // Each run is interrupted by a reset made on another thread, and arms the next run's.
        // (Before, the resolution ran it again after each such reset: 21 runs for one call here,
        // and no end while another thread looped reset().)
        @Sendable func interruptNextRun() {
            runLog.duringNextRun(of: container) { container in
                guard !stop.value, resets.next() <= 20 else { return }
                let done = DispatchSemaphore(value: 0)
                loggingThread {
                    container.reset()
                    done.signal()
                }.start()
                done.wait()
                interruptNextRun()
            }
        }
        interruptNextRun()
        // Registered after the reset, in the same run.
        #expect(container.resolve(AuditService.self) != nil)
        #expect(runLog.count(for: container) == 1, "the resolution that ran it did not run it again")
        stop.mutate { $0 = true }
        #expect(Container.accountLoader.resolve(in: container) != nil, "the next resolution ran it again")
        #expect(runLog.count(for: container) == 2)
        #expect(container.resolve(AuditService.self) != nil)
        #expect(runLog.count(for: container) == 2, "done for good after a run no reset interrupted")
    }

    @Test("a resolution begun after reset() waits for the interrupted run, then runs it again")
    func resolutionAfterTheReset() {
        let container = runLog.owned()
        let inRun = DispatchSemaphore(value: 0)
        let goOn = DispatchSemaphore(value: 0)
        runLog.duringNextRun(of: container) { _ in
            inRun.signal()
            _ = goOn.wait(timeout: .now() + 10)
        }
        let first = DispatchSemaphore(value: 0)
        loggingThread {
            _ = container.resolve(AuditService.self)
            first.signal()
        }.start()
        #expect(inRun.wait(timeout: .now() + 10) == .success)
        // Clears what the run registered so far (the loader).
        container.reset()
        let found = LockedValue(false)
        let second = DispatchSemaphore(value: 0)
        loggingThread {
            found.mutate { $0 = Container.accountLoader.resolve(in: container) != nil }
            second.signal()
        }.start()
        #expect(waitersOfTheRun(1), "the second resolution waits for the run in progress")
        goOn.signal()
        #expect(first.wait(timeout: .now() + 10) == .success)
        #expect(second.wait(timeout: .now() + 10) == .success)
        #expect(found.value, "the run this resolution waited for began before the reset: it ran it again")
        #expect(runLog.count(for: container) == 2)
    }
}
