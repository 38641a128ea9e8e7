import WeaveDICore

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

        var missing: [MissingDependency] = []
        var missingIndex: [String: Int] = [:]
        func addMissing(
            dependent: String?, site: RegistrationSite?, type: Any.Type, name: String?, requested: Bool, declared: Bool
        ) {
            let missingName = ResolutionFrame.displayName(type, name)
            let id = "\(dependent ?? "")\u{0}\(missingName)"
            if let index = missingIndex[id] {
                let old = missing[index]
                missing[index] = MissingDependency(
                    dependent: old.dependent, dependentSite: old.dependentSite, missing: old.missing,
                    missingType: old.missingType, wasRequested: old.wasRequested || requested,
                    isDeclared: old.isDeclared || declared)
            } else {
                missingIndex[id] = missing.count
                missing.append(
                    MissingDependency(
                        dependent: dependent, dependentSite: site, missing: missingName, missingType: type,
                        wasRequested: requested, isDeclared: declared))
            }
        }

        var cycles: [DependencyCycle] = []
        var failing: [FactoryFailure] = []
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
                let cycle = DependencyCycle(path: path) { siteByName[$0] }
                if !cycles.contains(cycle) { cycles.append(cycle) }
            case .factoryFailed(let type, let name, let underlying):
                let typeName = ResolutionFrame.displayName(type, name)
                guard failingNames.insert(typeName).inserted else { continue }
                let site = byKey[RegistryKey(anyType: type, name: name)]?.record.site ?? siteByName[typeName]
                failing.append(
                    FactoryFailure(
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
        var captives: [CaptiveDependency] = []
        for edge in edges {
            guard let holder = byKey[edge.from.key], holder.record.scope == .singleton,
                let held = byKey[edge.to.key], held.record.scope != .singleton
            else { continue }
            captives.append(
                CaptiveDependency(
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
