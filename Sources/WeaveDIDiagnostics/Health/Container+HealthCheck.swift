import Foundation
import WeaveDICore

extension Container {
    /// Resolves every registration (this container's and its parents'), and runs the health
    /// check of each resolved service that conforms to ``HealthCheckable``, all concurrently,
    /// each with `timeout` seconds. Returns the status per service, keyed by its type (and name)
    /// as messages spell it, e.g. `MyApp.DatabaseService`.
    ///
    /// - A check that does not finish in time is ``HealthStatus/unhealthy(error:)`` with a
    ///   ``HealthStatus/TimeoutError`` (and is cancelled).
    /// - A registration that cannot be resolved is unhealthy with the ``DIError`` (reported to
    ///   `onResolutionError` like any failed resolution).
    /// - Services that are not health-checkable are left out.
    ///
    /// This checks the real services: it builds singletons not built yet (those with an async
    /// factory too, awaited), and a transient service is built for the check.
    public func checkHealth(timeout: TimeInterval = 5) async -> [String: HealthStatus] {
        let registrations = chainedRegistrations()
        return await withTaskGroup(of: (String, HealthStatus?).self) { group in
            for registration in registrations {
                let service = registration.record.displayName
                group.addTask {
                    let status = await HealthCheckRace.run(service: service, timeout: timeout) {
                        await Container.check(registration, asking: self)
                    }
                    return (service, status)
                }
            }
            var results: [String: HealthStatus] = [:]
            for await (service, status) in group {
                if let status { results[service] = status }
            }
            return results
        }
    }

    /// Resolves the registration as `requester` (the checked container) would, and checks it, if
    /// it is health-checkable.
    private static func check(_ registration: ChainedRegistration, asking requester: Container) async -> HealthStatus? {
        let service: Any
        do {
            // With `await`: registrations with an async factory are checked like the others.
            service = try await registration.resolveAsync(asking: requester)
        } catch let error as DIError {
            return .unhealthy(error: registration.owner.report(error, thrown: true))
        } catch let reported as ReportedAsyncFailure {
            return .unhealthy(error: reported.error)
        } catch {
            return .unhealthy(error: error) // cancelled
        }
        guard let checkable = service as? HealthCheckable else { return nil }
        return await checkable.healthCheck()
    }
}

/// Runs one health check against a timer: whichever finishes first decides the status.
///
/// Both run as unstructured tasks and the caller waits on a continuation, not on them, so a
/// check that never returns (or ignores cancellation) cannot hold the caller past the timeout.
final class HealthCheckRace: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HealthStatus?, Never>?
        var tasks: [Task<Void, Never>] = []
        /// The first status, once one arrived (kept in case it arrives before `begin`).
        var result: HealthStatus??
    }

    private let state = Locked(State())

    /// Runs `check` (which resolves the service and checks it, returning `nil` when it is not
    /// health-checkable) with `timeout` seconds to finish.
    static func run(
        service: String,
        timeout: TimeInterval,
        check: @escaping @Sendable () async -> HealthStatus?
    ) async -> HealthStatus? {
        let race = HealthCheckRace()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.begin(continuation)
                let work = Task { race.finish(await check()) }
                let timer = Task {
                    let nanoseconds = UInt64(max(0, min(timeout, Double(UInt64.max) / 2e9)) * 1e9)
                    try? await Task.sleep(nanoseconds: nanoseconds)
                    if !Task.isCancelled {
                        race.finish(.unhealthy(error: HealthStatus.TimeoutError(service: service, timeout: timeout)))
                    }
                }
                race.track([work, timer])
            }
        } onCancel: {
            race.finish(.unhealthy(error: CancellationError()))
        }
    }

    private func begin(_ continuation: CheckedContinuation<HealthStatus?, Never>) {
        // The caller may have been cancelled before the continuation existed.
        let early = state.withLock { s -> HealthStatus?? in
            if s.result == nil { s.continuation = continuation }
            return s.result
        }
        if let early { continuation.resume(returning: early) }
    }

    private func track(_ tasks: [Task<Void, Never>]) {
        let finished = state.withLock { s -> Bool in
            if s.result == nil { s.tasks = tasks }
            return s.result != nil
        }
        if finished { for task in tasks { task.cancel() } }
    }

    /// Resumes the caller with the first status to arrive and cancels whatever is still running.
    private func finish(_ status: HealthStatus?) {
        let (continuation, tasks) = state.withLock {
            s -> (CheckedContinuation<HealthStatus?, Never>?, [Task<Void, Never>]) in
            guard s.result == nil else { return (nil, []) }
            s.result = .some(status)
            defer {
                s.continuation = nil
                s.tasks = []
            }
            return (s.continuation, s.tasks)
        }
        continuation?.resume(returning: status)
        for task in tasks { task.cancel() }
    }
}
