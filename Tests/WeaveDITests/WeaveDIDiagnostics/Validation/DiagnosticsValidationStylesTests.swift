import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

// Validation gives the same answer however factories reach their dependencies — through the
// bootstrap's captured `container` (the README's style), `Container.shared`, `UnifiedDI`, modules
// or Factory keys — and leaves the app's container, statistics and hooks untouched.

protocol VSMissing {}
final class VSNeedsMissing: Sendable { init(_ missing: (any VSMissing)?) {} }
final class VSOptionalUser: Sendable { init(_ missing: (any VSMissing)?) {} }
final class VSCycleA: Sendable { init(_ b: VSCycleB) {} }
final class VSCycleB: Sendable { init(_ a: VSCycleA) {} }
final class VSSelf: Sendable { init(_ me: VSSelf) {} }
final class VSCounted: Sendable {}
final class VSHolder: Sendable { init(_ helper: VSHelper) {} }
final class VSHelper: Sendable {}

extension Container {
    static let vsKeyNeedingMissing = Factory<VSNeedsMissing> {
        VSNeedsMissing(try? Container.shared.resolveOrThrow((any VSMissing).self))
    }
}

@Suite("Validation, every wiring style")
struct DiagnosticsValidationStylesTests {
    /// The README's style: factories capture the bootstrap's container.
    static func capturedStyle() -> (Container, Counter, [String: RegistrationSite]) {
        let container = Container()
        let counted = Counter()
        var sites: [String: RegistrationSite] = [:]
        sites["needs"] =
            container.register(VSNeedsMissing.self) {
                VSNeedsMissing(try container.resolveOrThrow((any VSMissing).self))
            }.site
        sites["optional"] =
            container.register(VSOptionalUser.self) {
                VSOptionalUser(container.resolve((any VSMissing).self))
            }.site
        container.register(VSCycleA.self) { VSCycleA(try container.resolveOrThrow(VSCycleB.self)) }
        container.register(VSCycleB.self) { VSCycleB(try container.resolveOrThrow(VSCycleA.self)) }
        container.register(VSSelf.self) { VSSelf(try container.resolveOrThrow(VSSelf.self)) }
        container.register(VSCounted.self, scope: .singleton) {
            counted.increment()
            return VSCounted()
        }
        container.register(VSHolder.self, scope: .singleton) { VSHolder(try container.resolveOrThrow(VSHelper.self)) }
        container.register(VSHelper.self) { VSHelper() }
        return (container, counted, sites)
    }

    static func expectEveryProblem(_ report: ValidationReport, sites: [String: RegistrationSite]? = nil) {
        let missing = report.missingDependencies.filter { $0.missing.contains("VSMissing") }
        #expect(missing.contains { $0.dependent?.contains("VSNeedsMissing") == true })
        #expect(
            missing.contains { $0.dependent?.contains("VSOptionalUser") == true },
            "an optional dependency that is missing is reported too")
        if let sites {
            #expect(missing.first { $0.dependent?.contains("VSNeedsMissing") == true }?.dependentSite == sites["needs"])
        }
        #expect(
            report.cycles.contains {
                $0.path.contains { $0.contains("VSCycleA") } && $0.path.contains { $0.contains("VSCycleB") }
            })
        #expect(report.cycles.contains { $0.path.count == 2 && $0.path.allSatisfy { $0.contains("VSSelf") } })
        #expect(
            report.captiveDependencies.contains {
                $0.singleton.contains("VSHolder") && $0.dependency.contains("VSHelper")
            })
        #expect(!report.isValid)
    }

    @Test("factories capturing the bootstrap container: every problem found, the app untouched")
    func capturedContainer() {
        let (container, counted, sites) = Self.capturedStyle()
        let heard = Recorder<String>()
        let token = UnifiedDI.onResolutionError { _, error in
            if "\(error)".contains("VS") { heard.append("\(error)") }
        }
        defer { token.cancel() }
        let statisticsBefore = container.statistics()
        let report = container.validate()
        Self.expectEveryProblem(report, sites: sites)
        #expect(heard.all.isEmpty, "the app's error hooks hear nothing")
        #expect(container.statistics() == statisticsBefore, "the app's statistics are untouched")
        #expect(container.dependencyGraph().edges.isEmpty, "the app's dependency graph is untouched")
        // The counting singleton's factory ran in the sandbox; the app's own instance is unbuilt.
        #expect(counted.value == 1)
        _ = container.resolve(VSCounted.self)
        #expect(counted.value == 2, "the app's first resolution builds the app's singleton")
    }

    @Test("factories resolving through Container.shared")
    func sharedContainer() {
        let container = Container()
        container.register(VSNeedsMissing.self) {
            VSNeedsMissing(try Container.shared.resolveOrThrow((any VSMissing).self))
        }
        container.register(VSOptionalUser.self) { VSOptionalUser(Container.shared.resolve((any VSMissing).self)) }
        container.register(VSCycleA.self) { VSCycleA(try Container.shared.resolveOrThrow(VSCycleB.self)) }
        container.register(VSCycleB.self) { VSCycleB(try Container.shared.resolveOrThrow(VSCycleA.self)) }
        container.register(VSSelf.self) { VSSelf(try Container.shared.resolveOrThrow(VSSelf.self)) }
        container.register(VSHolder.self, scope: .singleton) {
            VSHolder(try Container.shared.resolveOrThrow(VSHelper.self))
        }
        container.register(VSHelper.self) { VSHelper() }
        // The factories reach Container.shared: the app binds this container as shared.
        Self.expectEveryProblem(Container.withShared(container) { container.validate() })
    }

    @Test("factories resolving through UnifiedDI")
    func unifiedDI() {
        let container = Container()
        container.register(VSNeedsMissing.self) { VSNeedsMissing(try UnifiedDI.resolveOrThrow((any VSMissing).self)) }
        container.register(VSOptionalUser.self) { VSOptionalUser(UnifiedDI.resolve((any VSMissing).self)) }
        container.register(VSCycleA.self) { VSCycleA(try UnifiedDI.resolveOrThrow(VSCycleB.self)) }
        container.register(VSCycleB.self) { VSCycleB(try UnifiedDI.resolveOrThrow(VSCycleA.self)) }
        container.register(VSSelf.self) { VSSelf(try UnifiedDI.resolveOrThrow(VSSelf.self)) }
        container.register(VSHolder.self, scope: .singleton) { VSHolder(try UnifiedDI.resolveOrThrow(VSHelper.self)) }
        container.register(VSHelper.self) { VSHelper() }
        Self.expectEveryProblem(Container.withShared(container) { container.validate() })
    }

    @Test("registrations made by modules, capturing the container")
    func modules() async {
        let container = Container()
        await container.register(
            Module(VSNeedsMissing.self) { VSNeedsMissing(try container.resolveOrThrow((any VSMissing).self)) })
        await container.register(
            Module(VSOptionalUser.self) { VSOptionalUser(container.resolve((any VSMissing).self)) })
        await container.register(Module(VSCycleA.self) { VSCycleA(try container.resolveOrThrow(VSCycleB.self)) })
        await container.register(Module(VSCycleB.self) { VSCycleB(try container.resolveOrThrow(VSCycleA.self)) })
        await container.register(Module(VSSelf.self) { VSSelf(try container.resolveOrThrow(VSSelf.self)) })
        container.register(VSHolder.self, scope: .singleton) { VSHolder(try container.resolveOrThrow(VSHelper.self)) }
        container.register(VSHelper.self) { VSHelper() }
        Self.expectEveryProblem(container.validate())
    }

    @Test("a child container's validation diverts resolutions of its captured parent")
    func childOfCapturedParent() {
        let (parent, counted, _) = Self.capturedStyle()
        let child = Container(parent: parent)
        Self.expectEveryProblem(child.validate())
        _ = parent.resolve(VSCounted.self)
        #expect(counted.value == 2, "the parent's singleton was not built by validation")
    }

    @Test("a Factory key whose default resolves something missing")
    func factoryKey() {
        let container = Container()
        container.register(VSOptionalUser.self) {
            _ = Container.vsKeyNeedingMissing()
            return VSOptionalUser(nil)
        }
        let report = container.validate()
        #expect(report.missingDependencies.contains { $0.missing.contains("VSMissing") })
        #expect(container.registrations.count == 1, "validation installed nothing in the app's container")
    }

    @Test("a thread that is not validating keeps using the app's container meanwhile")
    func otherThreadsAreNotDiverted() {
        let container = Container()
        let validating = DispatchSemaphore(value: 0)
        let resolved = DispatchSemaphore(value: 0)
        let fromOtherThread = Recorder<Bool>()
        container.register(VSCounted.self, scope: .singleton) { VSCounted() }
        container.register(VSHelper.self) {
            validating.signal()
            _ = resolved.wait(timeout: .now() + 10)
            return VSHelper()
        }
        let app = container.resolve(VSCounted.self)
        Thread {
            _ = validating.wait(timeout: .now() + 10)
            fromOtherThread.append(container.resolve(VSCounted.self) === app)
            resolved.signal()
        }.start()
        _ = container.validate()
        #expect(fromOtherThread.all == [true])
    }
}
