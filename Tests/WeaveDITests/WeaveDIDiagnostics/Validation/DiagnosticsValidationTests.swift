import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

struct VNeedsAbsent {}
struct VAbsent {}
final class VCycleA: Sendable { init(_ b: VCycleB) {} }
final class VCycleB: Sendable { init(_ a: VCycleA) {} }
final class VCaptiveHolder: Sendable { init(_ helper: VTransientHelper?, _ request: VRequestThing?) {} }
struct VTransientHelper {}
struct VRequestThing {}
struct VThrowing {}
struct VBoom: Error, Equatable {}
struct VDeclaringModule {}
struct VDeclaredAbsent {}
struct VFine {}
final class VExpensive: Sendable {}
struct VUsesShared { init(_ fine: VFine?) {} }
struct VCritical {}
struct VCriticalNeedsAbsent { init(_ absent: VAbsent) {} }
struct VParentOnly {}

/// A graph with one problem of every kind, and where each was registered.
struct BrokenGraph {
    let container = Container()
    let needsAbsentSite: RegistrationSite
    let cycleASite: RegistrationSite
    let cycleBSite: RegistrationSite
    let holderSite: RegistrationSite
    let helperSite: RegistrationSite
    let requestSite: RegistrationSite
    let throwingSite: RegistrationSite
    let moduleSite: RegistrationSite

    init() {
        let container = self.container
        // Asks for VAbsent through Container.shared: optional, so VNeedsAbsent still builds.
        needsAbsentSite =
            container.register(VNeedsAbsent.self) {
                _ = Container.shared.resolve(VAbsent.self)
                return VNeedsAbsent()
            }.site
        cycleASite =
            container.register(VCycleA.self) {
                VCycleA(try UnifiedDI.resolveOrThrow(VCycleB.self))
            }.site
        cycleBSite =
            container.register(VCycleB.self) { VCycleB(try Container.shared.resolveOrThrow(VCycleA.self)) }.site
        holderSite =
            container.register(VCaptiveHolder.self, scope: .singleton) {
                VCaptiveHolder(
                    Container.shared.resolve(VTransientHelper.self), Container.shared.resolve(VRequestThing.self))
            }.site
        helperSite = container.register(VTransientHelper.self) { VTransientHelper() }.site
        requestSite = container.register(VRequestThing.self, scope: .request) { VRequestThing() }.site
        throwingSite = container.register(VThrowing.self) { throw VBoom() }.site
        let module = Module(VDeclaringModule.self, dependencies: [VDeclaredAbsent.self]) { VDeclaringModule() }
        moduleSite = module.site
        container.register(module)
        container.register(VFine.self) { VFine() }
    }

    /// Its factories reach their dependencies through `Container.shared`: the app makes it the
    /// shared container, and so does its validation.
    func validate() -> ValidationReport { Container.withShared(container) { container.validate() } }
}

@Suite(.capturesLog) struct DiagnosticsValidationTests {
    @Test func reportsEveryKindOfProblemAtOnce() throws {
        let broken = BrokenGraph()
        let report = broken.validate()
        #expect(!report.isValid)
        #expect(report.validatedCount == 9)

        // Missing: who needs what, and where the dependent was registered.
        let missing = try #require(report.missingDependencies.first { $0.missing == "WeaveDITests.VAbsent" })
        #expect(missing.dependent == "WeaveDITests.VNeedsAbsent")
        #expect(missing.dependentSite == broken.needsAbsentSite)
        #expect(missing.wasRequested && !missing.isDeclared)
        #expect(ObjectIdentifier(missing.missingType) == ObjectIdentifier(VAbsent.self))
        #expect(
            missing.description.contains(
                "WeaveDITests.VNeedsAbsent (registered at \(broken.needsAbsentSite)) needs WeaveDITests.VAbsent"))

        // Declared by a module but not registered.
        let declared = try #require(report.missingDeclaredDependencies.first)
        #expect(report.missingDeclaredDependencies.count == 1)
        #expect(declared.dependent == "WeaveDITests.VDeclaringModule")
        #expect(declared.missing == "WeaveDITests.VDeclaredAbsent")
        #expect(declared.dependentSite == broken.moduleSite)
        #expect(declared.isDeclared && !declared.wasRequested)
        #expect(report.missingDependencies.count == 2)

        // The cycle, whole, once (it is met from both ends), with each member's site.
        #expect(report.cycles.count == 1)
        let cycle = try #require(report.cycles.first)
        #expect(cycle.path == ["WeaveDITests.VCycleA", "WeaveDITests.VCycleB", "WeaveDITests.VCycleA"])
        #expect(cycle.sites == [broken.cycleASite, broken.cycleBSite])

        // Captive: the singleton holds a transient and a request-scoped instance.
        let captives = report.captiveDependencies.filter { $0.singleton == "WeaveDITests.VCaptiveHolder" }
        #expect(captives.map(\.dependency) == ["WeaveDITests.VRequestThing", "WeaveDITests.VTransientHelper"])
        #expect(captives.map(\.dependencyScope) == [.request, .transient])
        #expect(captives.map(\.singletonSite) == [broken.holderSite, broken.holderSite])
        #expect(captives.map(\.dependencySite) == [broken.requestSite, broken.helperSite])
        #expect(report.captiveDependencies.count == 2)

        // The factory that throws, with its error and site.
        #expect(report.failingFactories.count == 1)
        let failing = try #require(report.failingFactories.first)
        #expect(failing.typeName == "WeaveDITests.VThrowing")
        #expect(failing.site == broken.throwingSite)
        #expect(failing.error as? VBoom == VBoom())

        #expect(report.otherFailures.isEmpty)
        #expect(report.issueCount == 6)

        // The description lists every problem with file:line.
        let text = report.description
        #expect(text.hasPrefix("Dependency graph has 6 problem(s) in 9 registrations:"))
        for site in [
            broken.needsAbsentSite, broken.moduleSite, broken.cycleASite, broken.holderSite, broken.throwingSite,
        ] {
            #expect(text.contains(site.description))
        }
    }

    @Test func reportCarriesTheWholeGraph() throws {
        let report = BrokenGraph().validate()
        let graph = report.graph
        let holder = try #require(graph.nodes(typeName: "WeaveDITests.VCaptiveHolder").first)
        #expect(graph.dependencies(of: holder.id).map(\.label) == ["VRequestThing", "VTransientHelper"])
        let absent = try #require(graph.nodes(typeName: "WeaveDITests.VAbsent").first)
        #expect(!absent.isRegistered)
        #expect(graph.textTree().contains("(cycle)"))
    }

    @Test func throwingFormCarriesTheReport() {
        let broken = BrokenGraph()
        do {
            try Container.withShared(broken.container) { try broken.container.validateOrThrow() }
            Issue.record("validateOrThrow did not throw")
        } catch let error as ValidationError {
            #expect(error.report.issueCount == 6)
            #expect(error.description == error.report.description)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func captiveDependenciesCanBeAllowed() throws {
        let container = Container()
        container.register(VCaptiveHolder.self, scope: .singleton) {
            VCaptiveHolder(Container.shared.resolve(VTransientHelper.self), nil)
        }
        container.register(VTransientHelper.self) { VTransientHelper() }
        try Container.withShared(container) {
            #expect(throws: ValidationError.self) { try container.validateOrThrow() }
            try container.validateOrThrow(allowingCaptiveDependencies: true)
        }
    }

    @Test func validGraphPasses() throws {
        let container = Container()
        container.register(VFine.self) { VFine() }
        container.register(VUsesShared.self) { VUsesShared(Container.shared.resolve(VFine.self)) }
        container.register(VExpensive.self, scope: .singleton) { VExpensive() }
        try Container.withShared(container) {
            let report = container.validate()
            #expect(report.isValid)
            #expect(report.description == "Dependency graph is valid: 3 registrations resolved.")
            try container.validateOrThrow()
        }
    }

    @Test func sandboxLeavesRealSingletonsAndStateUntouched() throws {
        let container = Container()
        let runs = Counter()
        container.register(VExpensive.self, scope: .singleton) {
            runs.increment()
            return VExpensive()
        }
        container.register(VFine.self) { VFine() }
        #expect(container.validate().isValid)
        #expect(runs.value == 1) // built once, in the sandbox
        // The real container has not resolved anything, recorded nothing, and builds its own.
        #expect(container.statistics(for: VExpensive.self)?.resolutions == 0)
        #expect(container.dependencyGraph().edges.isEmpty)
        let real = try #require(container.resolve(VExpensive.self))
        #expect(runs.value == 2)
        #expect(container.resolve(VExpensive.self) === real)
        #expect(runs.value == 2)
    }

    @Test func factoriesUsingTheSharedContainerResolveInTheSandboxOfTheSharedContainer() {
        // VFine is registered only in this container. Bound as Container.shared, its factory
        // finds it (in the sandbox, a copy of this container); not bound, the factory asks the
        // shared container, which does not have it, as resolution does.
        let container = Container()
        container.register(VFine.self) { VFine() }
        container.register(VUsesShared.self) {
            guard let fine = Container.shared.resolve(VFine.self) else { throw VBoom() }
            return VUsesShared(fine)
        }
        #expect(Container.withShared(container) { container.validate() }.isValid)
        #expect(Container.withShared(container) { container.resolve(VUsesShared.self) } != nil)
        let unbound = Container.withShared(Container()) { container.validate() }
        #expect(!unbound.isValid)
        #expect(Container.withShared(Container()) { container.resolve(VUsesShared.self) } == nil)
    }

    @Test func validatesParentRegistrationsAndChildOverrides() throws {
        let parent = Container()
        parent.register(VParentOnly.self) { VParentOnly() }
        parent.register(VNeedsAbsent.self) {
            _ = Container.shared.resolve(VAbsent.self)
            return VNeedsAbsent()
        }
        let child = Container(parent: parent)
        // The child provides what the parent's factory needs through Container.shared: with the
        // child bound as shared, it works.
        child.register(VAbsent.self) { VAbsent() }
        let childReport = Container.withShared(child) { child.validate() }
        #expect(childReport.isValid)
        #expect(childReport.validatedCount == 3)
        let parentReport = Container.withShared(parent) { parent.validate() }
        #expect(parentReport.missingDependencies.map(\.missing) == ["WeaveDITests.VAbsent"])
    }

    @Test func verifyListsTheTypesThatCannotBeResolved() throws {
        let container = Container()
        let runs = Counter()
        container.register(VCritical.self, scope: .singleton) {
            runs.increment()
            return VCritical()
        }
        container.register(VCriticalNeedsAbsent.self) {
            VCriticalNeedsAbsent(try Container.shared.resolveOrThrow(VAbsent.self))
        }
        let failures = container.verify([VCritical.self, VCriticalNeedsAbsent.self, VFine.self])
        #expect(failures.map(\.typeName) == ["WeaveDITests.VCriticalNeedsAbsent", "WeaveDITests.VFine"])
        guard case .dependencyNotFound(let missing, _, _) = failures[0].error else {
            Issue.record("expected dependencyNotFound, got \(failures[0].error)")
            return
        }
        #expect(ObjectIdentifier(missing) == ObjectIdentifier(VAbsent.self))
        #expect(
            failures[1].description.hasPrefix(
                "WeaveDITests.VFine cannot be resolved: No registration for WeaveDITests.VFine."))
        #expect(container.verify([VCritical.self]).isEmpty)
        // Verified in a sandbox: the real singleton is still unbuilt.
        #expect(container.statistics(for: VCritical.self)?.resolutions == 0)
    }

    @Test func verifyOrThrowListsEveryFailure() {
        let container = Container()
        container.register(VCritical.self) { VCritical() }
        do {
            try container.verifyOrThrow([VCritical.self, VAbsent.self, VFine.self])
            Issue.record("verifyOrThrow did not throw")
        } catch {
            #expect(error.failures.map(\.typeName) == ["WeaveDITests.VAbsent", "WeaveDITests.VFine"])
            #expect(error.description.contains("- WeaveDITests.VAbsent cannot be resolved"))
        }
        #expect(throws: Never.self) { try container.verifyOrThrow([VCritical.self]) }
    }
}

extension DiagnosticsGlobalState {
    /// Installs a process-wide error hook, so it runs with the other global-state tests.
    @Suite(.capturesLog) struct ValidationHooks {
        @Test func sandboxFailuresDoNotReachTheAppHooks() {
            let heard = Recorder<String>()
            let token = UnifiedDI.onResolutionError { name, _ in heard.append(name) }
            defer { token.cancel() }
            let report = BrokenGraph().validate()
            #expect(!report.isValid)
            #expect(heard.all.filter { $0.hasPrefix("WeaveDITests.V") }.isEmpty)
        }
    }
}
