#if Dependencies
    import Foundation
    import Testing
    @testable import WeaveDI
    import WeaveDITestSupport

    // MARK: Fixtures

    /// A second container-only key, overridden next to `GreeterKey`.
    enum OtherGreeterKey: BridgedDependencyKey {
        static let bridge = DependencyBridge<any Greeter>(name: "other")
    }

    /// A plain swift-dependencies key, to compare the bridge with.
    enum PlainGreeterKey: DependencyKey {
        static let liveValue: any Greeter = FixedGreeter("plain live")
        static let testValue: any Greeter = FixedGreeter("plain live")
    }

    extension DependencyValues {
        var otherGreeter: any Greeter {
            get { self[bridged: OtherGreeterKey.self] }
            set { self[bridged: OtherGreeterKey.self] = newValue }
        }
        var plainGreeter: any Greeter {
            get { self[PlainGreeterKey.self] }
            set { self[PlainGreeterKey.self] = newValue }
        }
    }

    extension InjectedValues {
        var otherGreeter: any Greeter {
            get { self[bridged: OtherGreeterKey.self] }
            set { self[bridged: OtherGreeterKey.self] = newValue }
        }
    }

    /// Reads the two container-only keys both ways.
    struct PairReader {
        @Dependency(\.greeter) var dependencyGreeter
        @Injected(\.greeter) var injectedGreeter
        @Dependency(\.otherGreeter) var dependencyOther
        @Injected(\.otherGreeter) var injectedOther

        /// The four reads, as `greeter`'s two then `otherGreeter`'s two.
        var all: [String] {
            [
                dependencyGreeter.greet(), injectedGreeter.greet(), dependencyOther.greet(),
                injectedOther.greet(),
            ]
        }
    }

    /// A TCA-style model: `withDependencies(from:)` hands its captured dependencies to a child.
    final class GreeterModel {
        @Dependency(\.greeter) var greeter
        @Dependency(\.plainGreeter) var plain

        /// The bridged key's value and the plain key's, which the bridge should match.
        var both: [String] { [greeter.greet(), plain.greet()] }
    }

    /// A container with `LiveGreeter(id: 1)` unnamed ("live 1") and under "other" ("live 2").
    func pairContainer() -> Container {
        let container = Container()
        container.register((any Greeter).self) { LiveGreeter(id: 1) }
        container.register((any Greeter).self, name: "other") { LiveGreeter(id: 2) }
        return container
    }

    /// `live(_:_:)` for async bodies.
    func live<R: Sendable>(_ container: Container, _ body: () async throws -> R) async rethrows -> R {
        try await Container.withShared(container) {
            try await withDependencies {
                $0.context = .live
            } operation: {
                try await body()
            }
        }
    }

    // MARK: Per-key counts

    @Suite("Dependencies bridge: an override makes only its own key look it up")
    struct BridgePerKeyCountTests {
        @Test("while one key's override is alive, another key's reads skip the lookups")
        func otherKeysStayOnTheFastPath() async {
            // A fresh process, so that no other test's override is alive. With one count for the
            // whole process, `otherGreeter`'s count would be 1 and its reads would look up
            // swift-dependencies' values while `greeter` is overridden.
            await #expect(processExitsWith: .success) {
                let checks: [Bool] = live(pairContainer()) {
                    let held = withDependencies {
                        $0.greeter = FixedGreeter("mock")
                    } operation: {
                        PairReader()
                    }
                    let injected = withInjectedValues {
                        $0.greeter = FixedGreeter("injected")
                    } operation: {
                        [
                            overrideCount(GreeterKey.self) == 2,
                            overrideCount(OtherGreeterKey.self) == 0,
                            PairReader().all == ["injected", "injected", "live 2", "live 2"],
                        ]
                    }
                    return injected + [
                        overrideCount(GreeterKey.self) == 1,
                        overrideCount(GreeterKey.self, at: BridgeOverrides.inInjected) == 0,
                        overrideCount(OtherGreeterKey.self) == 0,
                        !BridgeOverrides.mayExist(
                            ObjectIdentifier(OtherGreeterKey.self), at: BridgeOverrides.inDependencies),
                        BridgeOverrides.mayExist(ObjectIdentifier(GreeterKey.self), at: BridgeOverrides.inDependencies),
                        held.all == ["mock", "live 1", "live 2", "live 2"],
                        PairReader().all == ["live 1", "live 1", "live 2", "live 2"],
                    ]
                }
                if checks.contains(false) { exit(1) }
            }
        }

        @Test("prepareDependencies keeps its key's count above 0 for good, and no other key's")
        func prepareDependenciesCountsItsKeyOnly() async {
            await #expect(processExitsWith: .success) {
                prepareDependencies { $0.greeter = FixedGreeter("prepared") }
                let checks = Container.withShared(pairContainer()) {
                    [
                        overrideCount(GreeterKey.self) == 1,
                        overrideCount(OtherGreeterKey.self) == 0,
                        PairReader().all == ["prepared", "prepared", "live 2", "live 2"],
                    ]
                }
                if checks.contains(false) { exit(1) }
            }
        }

        @Test("an InjectedValues value not bound yet counts, and reads, its own override")
        func unboundInjectedValues() {
            live(pairContainer()) {
                var values = InjectedValues.current
                values.greeter = FixedGreeter("set on the value")
                #expect(values.greeter.greet() == "set on the value")
                #expect(values.otherGreeter.greet() == "live 2")
                #expect(overrideCount(GreeterKey.self, at: BridgeOverrides.inInjected) >= 1)
                // Not bound: the task's own reads do not see it.
                #expect(PairReader().all == ["live 1", "live 1", "live 2", "live 2"])
                // Bound: applied to `DependencyValues`, and gone from the bound value.
                withInjectedValues {
                    $0 = values
                } operation: {
                    #expect(PairReader().all == ["set on the value", "set on the value", "live 2", "live 2"])
                    #expect(InjectedValues.current.overrides.bridged == nil)
                }
            }
        }

        @Test("parallel tasks overriding the same key and different keys, nested in child tasks")
        func parallelOverrides() async {
            await live(pairContainer()) {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<24 {
                        group.addTask {
                            let mine = FixedGreeter("task \(index)")
                            // Even tasks override `greeter`, odd ones `otherGreeter`, half through
                            // each world; a child task then overrides the other key.
                            let onGreeter = index.isMultiple(of: 2)
                            let expected =
                                onGreeter
                                ? ["task \(index)", "task \(index)", "live 2", "live 2"]
                                : ["live 1", "live 1", "task \(index)", "task \(index)"]
                            func checkNested() async {
                                #expect(PairReader().all == expected)
                                let child = await Task {
                                    await withInjectedValues {
                                        if onGreeter {
                                            $0.otherGreeter = FixedGreeter("child \(index)")
                                        } else {
                                            $0.greeter = FixedGreeter("child \(index)")
                                        }
                                    } operation: {
                                        await Task.yield()
                                        async let grandchild = PairReader().all
                                        return await grandchild
                                    }
                                }.value
                                #expect(child == expected.map { $0.hasPrefix("live") ? "child \(index)" : $0 })
                                // The child's override ended with it.
                                #expect(PairReader().all == expected)
                            }
                            if index % 4 < 2 {
                                await withDependencies {
                                    if onGreeter { $0.greeter = mine } else { $0.otherGreeter = mine }
                                } operation: {
                                    await checkNested()
                                }
                            } else {
                                await withInjectedValues {
                                    if onGreeter { $0.greeter = mine } else { $0.otherGreeter = mine }
                                } operation: {
                                    await checkNested()
                                }
                            }
                            #expect(PairReader().all == ["live 1", "live 1", "live 2", "live 2"])
                        }
                    }
                }
            }
        }

        @Test("overrides ending while other threads read: they never see one, the overriding tasks always do")
        func overridesEndWhileOthersRead() async {
            let container = pairContainer()
            let stop = LockedValue(false)
            let wrong = Recorder<String>()
            // Detached: they inherit no override (nor the container binding, set again).
            let readers = (0..<2).map { _ in
                Task.detached {
                    var reads = 0
                    await live(container) {
                        while !stop.value || reads < 1_000 {
                            let seen = PairReader().all
                            if seen != ["live 1", "live 1", "live 2", "live 2"] { wrong.append("reader: \(seen)") }
                            reads += 1
                            if reads.isMultiple(of: 64) { await Task.yield() }
                        }
                    }
                    return reads
                }
            }
            await live(container) {
                for round in 0..<200 {
                    let mock = FixedGreeter("round \(round)")
                    let seen: [String]
                    if round.isMultiple(of: 2) {
                        seen = await withDependencies {
                            $0.greeter = mock
                        } operation: {
                            await Task { PairReader().all }.value
                        }
                    } else {
                        seen = await withInjectedValues {
                            $0.greeter = mock
                        } operation: {
                            await Task { PairReader().all }.value
                        }
                    }
                    if seen != ["round \(round)", "round \(round)", "live 2", "live 2"] {
                        wrong.append("writer: \(seen)")
                    }
                }
            }
            stop.mutate { $0 = true }
            for reader in readers { #expect(await reader.value >= 1_000) }
            #expect(wrong.all == [])
        }
    }

    // MARK: withEscapedDependencies

    @Suite("Dependencies bridge: withEscapedDependencies carries overrides from both worlds")
    struct BridgeEscapedDependenciesTests {
        /// A continuation captured inside an override of `greeter` set through `world`.
        func escaped(_ world: String, _ mock: String) -> DependencyValues.Continuation {
            let capture = { withEscapedDependencies { $0 } }
            if world == "dependencies" {
                return withDependencies {
                    $0.greeter = FixedGreeter(mock)
                } operation: {
                    capture()
                }
            }
            return withInjectedValues {
                $0.greeter = FixedGreeter(mock)
            } operation: {
                capture()
            }
        }

        @Test(
            "yield restores the override, in both worlds, after its scope ended",
            arguments: ["dependencies", "injected"])
        func yieldAfterTheScope(world: String) {
            live(pairContainer()) {
                let continuation = escaped(world, "escaped")
                // Outside the yield, the scope is over.
                #expect(PairReader().all == ["live 1", "live 1", "live 2", "live 2"])
                continuation.yield {
                    #expect(PairReader().all == ["escaped", "escaped", "live 2", "live 2"])
                }
                #expect(PairReader().all == ["live 1", "live 1", "live 2", "live 2"])
            }
        }

        @Test(
            "yield in a detached task, and the tasks it creates, see the override",
            arguments: ["dependencies", "injected"])
        func yieldInAnEscapingContext(world: String) async {
            let container = pairContainer()
            let continuation = live(container) { escaped(world, "escaped") }
            // A detached task inherits nothing: the continuation is what carries the override.
            let seen = await Task.detached {
                await live(container) {
                    await continuation.yield {
                        let inTask = await Task { PairReader().all }.value
                        async let inChild = PairReader().all
                        return [PairReader().all, inTask, await inChild]
                    }
                }
            }.value
            #expect(seen == Array(repeating: ["escaped", "escaped", "live 2", "live 2"], count: 3))
        }

        @Test("an override inside yield wins there, in both worlds, and ends with it")
        func overrideInsideYield() {
            live(pairContainer()) {
                let continuation = escaped("injected", "escaped")
                continuation.yield {
                    withDependencies {
                        $0.greeter = FixedGreeter("inner")
                    } operation: {
                        #expect(PairReader().all == ["inner", "inner", "live 2", "live 2"])
                    }
                    withInjectedValues {
                        $0.otherGreeter = FixedGreeter("inner other")
                    } operation: {
                        #expect(PairReader().all == ["escaped", "escaped", "inner other", "inner other"])
                    }
                    #expect(PairReader().all == ["escaped", "escaped", "live 2", "live 2"])
                }
            }
        }

        @Test("parallel tasks each carry their own override through their own continuation")
        func parallelContinuations() async {
            let container = pairContainer()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let world = index.isMultiple(of: 2) ? "dependencies" : "injected"
                        let continuation = live(container) { escaped(world, "task \(index)") }
                        await Task.yield()
                        let seen = await Task.detached {
                            await live(container) {
                                await continuation.yield {
                                    await Task.yield()
                                    return await Task { PairReader().all }.value
                                }
                            }
                        }.value
                        #expect(seen == ["task \(index)", "task \(index)", "live 2", "live 2"])
                    }
                }
            }
        }
    }

    // MARK: withDependencies(from:)

    @Suite("Dependencies bridge: withDependencies(from:) treats a bridged key as a plain key")
    struct BridgeChildModelTests {
        /// A parent model created with both keys overridden through `world`.
        func parent(_ world: String, _ mock: String) -> GreeterModel {
            if world == "dependencies" {
                return withDependencies {
                    $0.greeter = FixedGreeter(mock)
                    $0.plainGreeter = FixedGreeter(mock)
                } operation: {
                    GreeterModel()
                }
            }
            return withInjectedValues {
                $0.greeter = FixedGreeter(mock)
            } operation: {
                withDependencies {
                    $0.plainGreeter = FixedGreeter(mock)
                } operation: {
                    GreeterModel()
                }
            }
        }

        /// Runs `body` inside an override of both keys, the bridged one set through `world`.
        func enclosing<R>(_ world: String, _ mock: String, _ body: () -> R) -> R {
            if world == "dependencies" {
                return withDependencies {
                    $0.greeter = FixedGreeter(mock)
                    $0.plainGreeter = FixedGreeter(mock)
                } operation: {
                    body()
                }
            }
            return withInjectedValues {
                $0.greeter = FixedGreeter(mock)
            } operation: {
                withDependencies {
                    $0.plainGreeter = FixedGreeter(mock)
                } operation: {
                    body()
                }
            }
        }

        static let worlds = [
            ("dependencies", "dependencies"), ("dependencies", "injected"), ("injected", "dependencies"),
            ("injected", "injected"),
        ]

        @Test("a child model sees its parent's override, wherever it is made", arguments: ["dependencies", "injected"])
        func childSeesParent(world: String) {
            live(pairContainer()) {
                let model = parent(world, "parent")
                #expect(model.both == ["parent", "parent"])
                let child = withDependencies(from: model) { GreeterModel() }
                #expect(child.both == ["parent", "parent"])
                // `@Injected` reads in the child's scope see it too.
                withDependencies(from: model) {
                    #expect(Reader().injectedGreeter.greet() == "parent")
                }
            }
        }

        @Test(
            "an enclosing override wins over the parent's, the closure's changes over both, as for a plain key",
            arguments: worlds)
        func enclosingOverride(parentWorld: String, enclosingWorld: String) {
            live(pairContainer()) {
                // The enclosing override is set before one parent was made and after the other.
                let early = parent(parentWorld, "parent")
                let children = enclosing(enclosingWorld, "enclosing") {
                    let late = parent(parentWorld, "parent")
                    return [early, late].map { model in
                        // swift-dependencies starts from the parent's values and puts the current
                        // task's overrides over them, then the closure's changes.
                        let child = withDependencies(from: model) { GreeterModel() }
                        #expect(child.both == ["enclosing", "enclosing"])
                        withDependencies(from: model) {
                            #expect(Reader().injectedGreeter.greet() == "enclosing")
                        }
                        let changed = withDependencies(from: model) {
                            $0.greeter = FixedGreeter("closure")
                            $0.plainGreeter = FixedGreeter("closure")
                        } operation: {
                            #expect(Reader().injectedGreeter.greet() == "closure")
                            return GreeterModel()
                        }
                        // A `@Dependency` read puts the reading task's overrides over the values
                        // it captured: inside the enclosing override, that override.
                        #expect(changed.both == ["enclosing", "enclosing"])
                        return (child, changed)
                    }
                }
                // Outside it, each child reads what it captured.
                for (child, changed) in children {
                    #expect(child.both == ["enclosing", "enclosing"])
                    #expect(changed.both == ["closure", "closure"])
                }
            }
        }
    }
#endif
