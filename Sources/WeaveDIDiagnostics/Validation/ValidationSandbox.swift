import WeaveDICore

/// Throwaway containers holding fresh copies of another container's registrations and of its
/// parents', where validation resolves everything without touching the app.
///
/// The sandboxes mirror the app's containers: one per container of the validated chain, each
/// the child of its parent's sandbox, so a registration is resolved where it is in the app and a
/// factory that captured a parent resolves in (the sandbox of) that parent, seeing only what the
/// parent sees. When `Container.shared` is not one of those containers, its chain is mirrored too.
/// While validation runs, resolutions the validating thread asks of any of those containers — a
/// factory's captured container, `Container.shared` through `UnifiedDI`, the property wrappers or
/// `Factory` keys — are diverted to their sandboxes, and one asked of a container other than the
/// validated one is noted for the report. Failures go to the collector, never to the app's hooks
/// or log; the sandboxes' singletons and scope instances are their own and released with them.
final class ValidationSandbox {
    let collector = ValidationCollector()
    /// The validated container's sandbox.
    let container: Container
    /// The validated container.
    let source: Container
    /// Each real container (validated chain, then `Container.shared`'s) and its sandbox.
    let sandboxes: [(real: Container, sandbox: Container)]
    /// How the report names each real container, by its sandbox's identity and its own.
    let names: [ObjectIdentifier: String]

    init(copying source: Container) {
        self.source = source
        let shared = Container.shared
        // The app would run its AutoRegistering setup before its first resolution; so does this.
        // It fails only when the run in progress waits for this very thread (validation started
        // inside a factory the run needs); the registrations made so far are validated then.
        _ = try? source.ensureAutoRegistered()
        _ = try? shared.ensureAutoRegistered()
        let collector = collector
        var pairs: [(real: Container, sandbox: Container)] = []
        var names: [ObjectIdentifier: String] = [:]
        func mirror(_ chain: [Container], naming name: (Int) -> String) {
            var parentSandbox: Container?
            for (level, real) in chain.enumerated().reversed() {
                if let known = pairs.first(where: { $0.real === real }) {
                    parentSandbox = known.sandbox
                    continue
                }
                let sandbox = Container(sandboxReportingTo: collector, parent: parentSandbox)
                sandbox.addFreshCopies(of: real.ownRegistrations())
                // What the copies build is decorated as the app's instances are.
                sandbox.copyDecorators(from: real)
                pairs.append((real, sandbox))
                names[real.identity] = name(level)
                names[sandbox.identity] = name(level)
                parentSandbox = sandbox
            }
        }
        mirror(source.chain) { level in
            level == 0 ? "the validated container" : level == 1 ? "its parent" : "its parent \(level) levels up"
        }
        if !source.chain.contains(where: { $0 === shared }) {
            let sharedName =
                Container.isProcessWide(shared)
                ? "Container.shared (the process-wide container)"
                : "Container.shared (the container bound with withShared)"
            mirror(shared.chain) { level in
                level == 0 ? sharedName : level == 1 ? "the parent of \(sharedName)" : "a parent of \(sharedName)"
            }
        }
        sandboxes = pairs
        self.names = names
        container = pairs.first { $0.real === source }.unsafelyUnwrapped.sandbox
    }

    deinit {
        // Sandbox singletons and scope instances go now, not whenever the last edge lets go.
        for pair in sandboxes { pair.sandbox.reset() }
    }

    /// The validated container's registrations, each in the sandbox of the container that owns
    /// it in the app (factories that register add to them).
    var registrations: [ChainedRegistration] { container.chainedRegistrations() }

    /// Resolves `registration` in the sandbox. Returns the failure, and whether it was already
    /// collected (a nested resolution reported it and the factories rethrew it).
    func resolve(_ registration: ChainedRegistration) -> (error: DIError, collected: Bool)? {
        isolated { () -> (error: DIError, collected: Bool)? in
            do throws(DIError) {
                _ = try registration.resolve(asking: container)
                return nil
            } catch {
                return (error, ResolutionStack.current.takePropagated(error))
            }
        }
    }

    /// Resolves `registration` in the sandbox with `await` (an async factory's too), the
    /// resolutions the current task asks of the mirrored containers diverted here.
    func resolveAsync(_ registration: ChainedRegistration) async -> (error: DIError, collected: Bool)? {
        await source.divertResolutionsAsync(to: sandboxes, sink: collector) {
            () async -> (error: DIError, collected: Bool)? in
            do {
                _ = try await registration.resolveAsync(asking: container)
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

    /// Resolves `type` (unnamed) as `resolve(type)` on the validated container would, in the sandbox.
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

    /// Runs `body` with the sandboxes taking the resolutions asked of the containers they mirror
    /// on this thread.
    private func isolated<R>(_ body: () -> R) -> R {
        source.divertResolutions(to: sandboxes, sink: collector, body)
    }
}

extension ValidationSandbox {
    /// Resolves every registration once and reports everything that went wrong.
    ///
    /// Registrations with an async factory are not built (this cannot await); the report lists
    /// them in ``ValidationReport/unbuiltAsyncRegistrations``.
    func validateAll() -> ValidationReport {
        // A factory taking arguments cannot be built without them: it is listed, not built. An
        // autowired one missing a parameter is reported from its record, not built.
        let roots = registrations.filter {
            !$0.applying.isAsync && $0.applying.argumentTypes.isEmpty && !lacksAutowiredParameter($0)
        }
        for root in roots {
            if let failure = resolve(root), !failure.collected {
                // The root's own factory failed (nothing nested reported it).
                collector.collect(failure.error, dependent: nil)
            }
        }
        var report = report(validatedCount: roots.count)
        report.unbuiltAsyncRegistrations = registrations.filter(\.applying.isAsync).map(\.record.displayName).sorted()
        report.unbuiltArgumentRegistrations = registrations.filter { !$0.applying.argumentTypes.isEmpty }
            .map(\.record.displayName).sorted()
        return report
    }

    /// Resolves every registration once, async factories included (awaited), and reports
    /// everything that went wrong.
    func validateAllAsync() async -> ValidationReport {
        let roots = registrations.filter { $0.applying.argumentTypes.isEmpty && !lacksAutowiredParameter($0) }
        for root in roots {
            if let failure = await resolveAsync(root), !failure.collected {
                collector.collect(failure.error, dependent: nil)
            }
        }
        var report = report(validatedCount: roots.count)
        report.unbuiltArgumentRegistrations = registrations.filter { !$0.applying.argumentTypes.isEmpty }
            .map(\.record.displayName).sorted()
        return report
    }

    /// Whether `registration` is autowired and a (non-optional) parameter type of its
    /// initializer is not registered: its factory would fail, so it is not built (the report
    /// names the parameter). A missing optional parameter gets `nil`: it is built.
    func lacksAutowiredParameter(_ registration: ChainedRegistration) -> Bool {
        registration.applying.isAutowired
            && registration.applying.declaredDependencies.contains {
                !Container.DeclaredDependency(declared: $0).isOptional
                    && !container.isRegistered(key: RegistryKey(anyType: $0))
            }
    }

    /// Whether the optional dependency `dependency` gets `nil`: neither its optional type nor
    /// its wrapped type is registered.
    func isAbsent(_ dependency: Container.DeclaredDependency) -> Bool {
        !container.isRegistered(key: RegistryKey(anyType: dependency.declaredType))
            && !container.isRegistered(key: RegistryKey(anyType: dependency.type))
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
            dependent: String?, site: RegistrationSite?, type: Any.Type, name: String?, requested: Bool, declared: Bool,
            askedOf: String? = nil, similar: [String], autowired: Bool = false
        ) {
            let missingName = ResolutionFrame.displayName(type, name)
            let id = "\(dependent ?? "")\u{0}\(missingName)\u{0}\(askedOf ?? "")"
            if let index = missingIndex[id] {
                let old = missing[index]
                missing[index] = ValidationReport.MissingDependency(
                    dependent: old.dependent, dependentSite: old.dependentSite, missing: old.missing,
                    missingType: old.missingType, wasRequested: old.wasRequested || requested,
                    isDeclared: old.isDeclared || declared)
                missing[index].askedOf = old.askedOf
                missing[index].similar = old.similar.isEmpty ? similar : old.similar
                missing[index].isAutowiredParameter = old.isAutowiredParameter || autowired
            } else {
                missingIndex[id] = missing.count
                var entry = ValidationReport.MissingDependency(
                    dependent: dependent, dependentSite: site, missing: missingName, missingType: type,
                    wasRequested: requested, isDeclared: declared)
                entry.askedOf = askedOf
                entry.similar = similar
                entry.isAutowiredParameter = autowired
                missing.append(entry)
            }
        }

        var cycles: [ValidationReport.Cycle] = []
        var failing: [ValidationReport.FactoryFailure] = []
        var failingNames = Set<String>()
        var other: [DIError] = []
        for failure in collector.all {
            switch failure.error {
            case .dependencyNotFound(let type, let name, let similar):
                // Missing where it was asked: say so when that is not the validated container.
                let askedOf = failure.sandbox.flatMap { $0 == container.identity ? nil : names[$0] }
                addMissing(
                    dependent: failure.dependent?.displayName,
                    site: failure.dependent.flatMap { byKey[$0.key]?.record.site },
                    type: type, name: name, requested: true, declared: false, askedOf: askedOf,
                    similar: similar.names)
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

        // A context registration's dependencies are those of the entry that applies.
        var absentOptional: [String] = []
        for registration in all {
            for declared in registration.applying.declaredDependencies {
                let dependency = Container.DeclaredDependency(declared: declared)
                if dependency.isOptional {
                    if isAbsent(dependency) {
                        absentOptional.append("\(registration.record.displayName): \(dependency)")
                    }
                    continue
                }
                guard !container.isRegistered(key: RegistryKey(anyType: declared)) else { continue }
                addMissing(
                    dependent: registration.record.displayName, site: registration.record.site,
                    type: declared, name: nil, requested: false, declared: true,
                    similar: container.similarRegistrations(to: declared, name: nil),
                    autowired: registration.applying.isAutowired)
            }
        }

        var edges: [DependencyGraphRecorder.Edge] = []
        var seenEdges = Set<DependencyGraphRecorder.Edge>()
        for pair in sandboxes {
            for edge in pair.sandbox.graph.allEdges where seenEdges.insert(edge).inserted { edges.append(edge) }
        }
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

        var report = ValidationReport(
            validatedCount: validatedCount,
            missingDependencies: missing.sorted { ($0.dependent ?? "", $0.missing) < ($1.dependent ?? "", $1.missing) },
            cycles: cycles.sorted { $0.path.lexicographicallyPrecedes($1.path) },
            captiveDependencies: captives.sorted { ($0.singleton, $0.dependency) < ($1.singleton, $1.dependency) },
            failingFactories: failing.sorted { $0.typeName < $1.typeName },
            otherFailures: other,
            graph: DependencyGraph(registrations: all, recorded: edges))
        // Context registrations that do not apply now were not built (nor the plain registration
        // a context registration replaces): listed, with the context each needs.
        report.inactiveContextRegistrations = all.flatMap { registration in
            registration.record.inactiveContexts.map { context in
                "\(registration.record.displayName) \(context.map { "in context \($0)" } ?? "(plain)")"
            }
        }.sorted()
        report.absentOptionalDependencies = absentOptional.sorted()
        report.outsideResolutions = collector.allReaches.compactMap { reach in
            names[reach.container].map { ValidationReport.OutsideResolution(dependent: reach.dependent, container: $0) }
        }
        return report
    }
}
