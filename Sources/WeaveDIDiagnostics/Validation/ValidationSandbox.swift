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
        container.addFreshCopies(of: source.chainedRegistrations())
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

extension ValidationSandbox {
    /// Resolves every registration once and reports everything that went wrong.
    ///
    /// Registrations with an async factory are not built (this cannot await); the report lists
    /// them in ``ValidationReport/unbuiltAsyncRegistrations``.
    func validateAll() -> ValidationReport {
        let roots = registrations.filter { !$0.record.isAsync }
        for root in roots {
            if let failure = resolve(root), !failure.collected {
                // The root's own factory failed (nothing nested reported it).
                collector.collect(failure.error, dependent: nil)
            }
        }
        var report = report(validatedCount: roots.count)
        report.unbuiltAsyncRegistrations = registrations.filter(\.record.isAsync).map(\.record.displayName).sorted()
        return report
    }

    /// Resolves every registration once, async factories included (awaited), and reports
    /// everything that went wrong.
    func validateAllAsync() async -> ValidationReport {
        let roots = registrations
        for root in roots {
            if let failure = await resolveAsync(root), !failure.collected {
                collector.collect(failure.error, dependent: nil)
            }
        }
        return report(validatedCount: roots.count)
    }

    /// Turns what the collector heard, the declared dependencies and the recorded edges into
    /// a report.
    func report(validatedCount: Int) -> ValidationReport {
        let all = registrations
        var byKey: [RegistryKey: ChainedRegistration] = [:]
        var siteByName: [String: RegistrationSite] = [:]
        for registration in all {
            byKey[registration.key] = registration
            siteByName[registration.record.displayName] = registration.record.site
        }

        var missing: [ValidationReport.MissingDependency] = []
        var missingIndex: [String: Int] = [:]
        func addMissing(
            dependent: String?, site: RegistrationSite?, type: Any.Type, name: String?, requested: Bool, declared: Bool
        ) {
            let missingName = ResolutionFrame.displayName(type, name)
            let id = "\(dependent ?? "")\u{0}\(missingName)"
            if let index = missingIndex[id] {
                let old = missing[index]
                missing[index] = ValidationReport.MissingDependency(
                    dependent: old.dependent, dependentSite: old.dependentSite, missing: old.missing,
                    missingType: old.missingType, wasRequested: old.wasRequested || requested,
                    isDeclared: old.isDeclared || declared)
            } else {
                missingIndex[id] = missing.count
                missing.append(
                    ValidationReport.MissingDependency(
                        dependent: dependent, dependentSite: site, missing: missingName, missingType: type,
                        wasRequested: requested, isDeclared: declared))
            }
        }

        var cycles: [ValidationReport.Cycle] = []
        var failing: [ValidationReport.FactoryFailure] = []
        var failingNames = Set<String>()
        var other: [DIError] = []
        for failure in collector.all {
            switch failure.error {
            case .dependencyNotFound(let type, let name, _):
                addMissing(
                    dependent: failure.dependent?.displayName,
                    site: failure.dependent.flatMap { byKey[$0.key]?.record.site },
                    type: type, name: name, requested: true, declared: false)
            case .circularDependency(let path):
                let cycle = ValidationReport.Cycle(path: path) { siteByName[$0] }
                if !cycles.contains(cycle) { cycles.append(cycle) }
            case .factoryFailed(let type, let name, let underlying):
                let typeName = ResolutionFrame.displayName(type, name)
                guard failingNames.insert(typeName).inserted else { continue }
                let site = byKey[RegistryKey(anyType: type, name: name)]?.record.site ?? siteByName[typeName]
                failing.append(
                    ValidationReport.FactoryFailure(
                        typeName: typeName, site: site,
                        requiredBy: failure.dependent?.displayName, error: underlying))
            default:
                if !other.contains(where: { $0.isSameFailure(as: failure.error) }) { other.append(failure.error) }
            }
        }

        for registration in all {
            for dependency in registration.record.declaredDependencies
            where !container.isRegistered(key: RegistryKey(anyType: dependency)) {
                addMissing(
                    dependent: registration.record.displayName, site: registration.record.site,
                    type: dependency, name: nil, requested: false, declared: true)
            }
        }

        let edges = Array(container.graph.allEdges)
        var captives: [ValidationReport.CaptiveDependency] = []
        for edge in edges {
            guard let holder = byKey[edge.from.key], holder.record.scope == .singleton,
                let held = byKey[edge.to.key], held.record.scope != .singleton
            else { continue }
            captives.append(
                ValidationReport.CaptiveDependency(
                    singleton: holder.record.displayName, singletonSite: holder.record.site,
                    dependency: held.record.displayName, dependencyScope: held.record.scope,
                    dependencySite: held.record.site))
        }

        return ValidationReport(
            validatedCount: validatedCount,
            missingDependencies: missing.sorted { ($0.dependent ?? "", $0.missing) < ($1.dependent ?? "", $1.missing) },
            cycles: cycles.sorted { $0.path.lexicographicallyPrecedes($1.path) },
            captiveDependencies: captives.sorted { ($0.singleton, $0.dependency) < ($1.singleton, $1.dependency) },
            failingFactories: failing.sorted { $0.typeName < $1.typeName },
            otherFailures: other,
            graph: DependencyGraph(registrations: all, recorded: edges))
    }
}
