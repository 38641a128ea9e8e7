import WeaveDICore

/// A throwaway container holding fresh copies of another container's registrations (and its
/// parents'), where validation resolves everything without touching the app.
///
/// Resolution runs with the sandbox bound as `Container.shared`, so factories that resolve through
/// `Container.shared`, `UnifiedDI` or the property wrappers resolve in the sandbox; and while it
/// runs, resolutions the validating thread asks of the validated container or its parents — a
/// factory that captured the bootstrap's `container` — are diverted to the sandbox too. Its
/// failures go to its collector, never to the app's hooks or log; its singletons and scope
/// instances are its own and are released with it.
final class ValidationSandbox {
    let collector = ValidationCollector()
    let container: Container
    /// The validated container.
    let source: Container

    init(copying source: Container) {
        self.source = source
        // The app would run its AutoRegistering setup before its first resolution; so does this.
        // It fails only when the run in progress waits for this very thread (validation started
        // inside a factory the run needs); the registrations made so far are validated then.
        _ = try? source.ensureAutoRegistered()
        container = Container(sandboxReportingTo: collector)
        // The keys are unique and the sandbox starts empty: nothing is replaced.
        for registration in source.chainedRegistrations() {
            container.registry.withSlotForWriting(id: registration.key.id) { slot, sequence in
                let copy = registration.record.freshCopy()
                _ = slot.lock.withLock { slot.setRecord(copy, named: registration.key.name, sequence: sequence) }
            }
        }
    }

    deinit {
        // Sandbox singletons and scope instances go now, not whenever the last edge lets go.
        container.reset()
    }

    /// The sandbox's registrations (factories that register add to them).
    var registrations: [ChainedRegistration] { container.chainedRegistrations() }

    /// Resolves `registration` in the sandbox. Returns the failure, and whether it was already
    /// collected (a nested resolution reported it and the factories rethrew it).
    func resolve(_ registration: ChainedRegistration) -> (error: DIError, collected: Bool)? {
        isolated { () -> (error: DIError, collected: Bool)? in
            do throws(DIError) {
                _ = try registration.resolve()
                return nil
            } catch {
                return (error, ResolutionStack.current.takePropagated(error))
            }
        }
    }

    /// Resolves `registration` in the sandbox with `await` (an async factory's too), the
    /// resolutions the current task asks of the validated container diverted here.
    func resolveAsync(_ registration: ChainedRegistration) async -> (error: DIError, collected: Bool)? {
        await Container.withShared(container) {
            await source.divertResolutionsAsync(to: container) { () async -> (error: DIError, collected: Bool)? in
                do {
                    _ = try await registration.resolveAsync()
                    return nil
                } catch let error as DIError {
                    return (error, collector.all.contains { $0.error.isSameFailure(as: error) })
                } catch let reported as ReportedAsyncFailure {
                    return (reported.error, true)
                } catch {
                    // Only a cancellation gets here: the validating task was cancelled.
                    return (
                        DIError.factoryFailed(
                            registration.record.type, name: registration.record.name, underlying: error), false
                    )
                }
            }
        }
    }

    /// Resolves `type` (unnamed) as `Container.shared.resolve(type)` would, in the sandbox.
    func resolve(_ type: Any.Type) -> DIError? {
        isolated { () -> DIError? in
            do throws(DIError) {
                _ = try container.resolveErased(type, name: nil)
                return nil
            } catch {
                // Reported to the sandbox's collector (unless a nested call did), with look-alikes.
                return container.report(error, thrown: true)
            }
        }
    }

    /// Runs `body` with the sandbox standing in for the validated container and its parents:
    /// bound as `Container.shared`, and taking the resolutions asked of them on this thread.
    private func isolated<R>(_ body: () -> R) -> R {
        Container.withShared(container) { source.divertResolutions(to: container, body) }
    }
}
