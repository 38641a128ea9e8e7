import Foundation
import WeaveDICore

extension Container {
    /// Resolves every registration (this container's and its parents'), and runs the health
    /// check of each resolved service that conforms to ``HealthCheckable``, all concurrently,
    /// each with `timeout` seconds. Returns the status per service, keyed by its type (and name)
    /// as messages spell it, e.g. `MyApp.DatabaseService`.
    ///
    /// - A check that does not finish in time is ``HealthStatus/unhealthy(error:)`` with a
    ///   ``HealthCheckTimeoutError`` (and is cancelled).
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
                        await Container.check(registration)
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

    /// Resolves the registration and checks it, if it is health-checkable.
    private static func check(_ registration: ChainedRegistration) async -> HealthStatus? {
        let service: Any
        do {
            // With `await`: registrations with an async factory are checked like the others.
            service = try await registration.resolveAsync()
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
