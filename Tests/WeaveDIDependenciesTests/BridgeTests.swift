#if Dependencies
    import Foundation
    import Testing
    @testable import WeaveDI
    import WeaveDITestSupport

    // MARK: Fixtures

    protocol Greeter: Sendable {
        var id: Int { get }
        func greet() -> String
    }

    struct LiveGreeter: Greeter {
        let id: Int
        func greet() -> String { "live \(id)" }
    }

    struct NamedGreeter: Greeter {
        let id: Int
        let label: String
        func greet() -> String { label }
    }

    struct FixedGreeter: Greeter {
        let id: Int
        let text: String
        init(_ text: String, id: Int = 0) {
            self.text = text
            self.id = id
        }
        func greet() -> String { text }
    }

    /// Container only: no fallback, no test or preview value.
    enum GreeterKey: BridgedDependencyKey {
        static let bridge = DependencyBridge<any Greeter>()
    }

    /// A named registration, with a fallback.
    enum FormalGreeterKey: BridgedDependencyKey {
        static let bridge = DependencyBridge<any Greeter>(name: "formal", fallback: { FixedGreeter("fallback") })
    }

    /// Test and preview values of its own.
    enum ContextGreeterKey: BridgedDependencyKey {
        static let bridge = DependencyBridge<any Greeter>(
            fallback: { FixedGreeter("fallback") },
            testValue: { FixedGreeter("test") },
            previewValue: { FixedGreeter("preview") })
    }

    protocol Clock2: Sendable {}
    struct NeedsMissing: Sendable {}

    /// A fallback, but the registration's own factory misses a dependency.
    enum NeedsMissingKey: BridgedDependencyKey {
        static let bridge = DependencyBridge<NeedsMissing>(fallback: { NeedsMissing() })
    }

    extension DependencyValues {
        var greeter: any Greeter {
            get { self[bridged: GreeterKey.self] }
            set { self[bridged: GreeterKey.self] = newValue }
        }
        var formalGreeter: any Greeter {
            get { self[bridged: FormalGreeterKey.self] }
            set { self[bridged: FormalGreeterKey.self] = newValue }
        }
        var contextGreeter: any Greeter {
            get { self[bridged: ContextGreeterKey.self] }
            set { self[bridged: ContextGreeterKey.self] = newValue }
        }
    }

    extension InjectedValues {
        var greeter: any Greeter {
            get { self[bridged: GreeterKey.self] }
            set { self[bridged: GreeterKey.self] = newValue }
        }
        var formalGreeter: any Greeter {
            get { self[bridged: FormalGreeterKey.self] }
            set { self[bridged: FormalGreeterKey.self] = newValue }
        }
        var contextGreeter: any Greeter {
            get { self[bridged: ContextGreeterKey.self] }
            set { self[bridged: ContextGreeterKey.self] = newValue }
        }
    }

    /// Reads each key both ways.
    struct Reader {
        @Dependency(\.greeter) var dependencyGreeter
        @Injected(\.greeter) var injectedGreeter
        @Dependency(\.formalGreeter) var dependencyFormal
        @Injected(\.formalGreeter) var injectedFormal
        @Dependency(\.contextGreeter) var dependencyContext
        @Injected(\.contextGreeter) var injectedContext
    }

    /// Runs `body` with a container of its own as `Container.shared`, in swift-dependencies'
    /// live context (the test process is detected as `.test`).
    func live<R>(_ container: Container = Container(), _ body: () throws -> R) rethrows -> R {
        try Container.withShared(container) {
            try withDependencies {
                $0.context = .live
            } operation: {
                try body()
            }
        }
    }

    /// How many overrides of `key` exist in `DependencyValues` (or, with
    /// `BridgeOverrides.inInjected`, on `InjectedValues` values not bound yet).
    func overrideCount<Key: BridgedDependencyKey>(_ key: Key.Type, at offset: Int = BridgeOverrides.inDependencies)
        -> Int
    {
        BridgeOverrides.count(of: ObjectIdentifier(key), at: offset)
    }

    // MARK: Tests

    @Suite("Dependencies bridge: the live value is the container's")
    struct BridgeLiveValueTests {
        @Test("both wrappers read the registration, with its lifetime")
        func lifetimes() {
            let container = Container()
            let made = Counter()
            container.register((any Greeter).self) { LiveGreeter(id: made.next()) }
            live(container) {
                let reader = Reader()
                let first = reader.dependencyGreeter.id
                let second = reader.injectedGreeter.id
                #expect(first != second) // transient: a new instance per read
                #expect(made.value == 2)
            }
            container.register((any Greeter).self, scope: .singleton) { LiveGreeter(id: made.next()) }
            live(container) {
                let reader = Reader()
                #expect(reader.dependencyGreeter.id == reader.injectedGreeter.id)
            }
        }

        @Test("a registration made after the owner was created is seen")
        func lateRegistration() {
            let container = Container()
            live(container) {
                let reader = Reader()
                container.register((any Greeter).self) { LiveGreeter(id: 7) }
                #expect(reader.dependencyGreeter.greet() == "live 7")
                #expect(reader.injectedGreeter.greet() == "live 7")
            }
        }

        @Test("a named key reads the named registration; the fallback only when it is missing")
        func namedAndFallback() {
            let container = Container()
            container.register((any Greeter).self) { LiveGreeter(id: 1) }
            live(container) {
                #expect(Reader().dependencyFormal.greet() == "fallback")
                #expect(Reader().injectedFormal.greet() == "fallback")
            }
            container.register("formal", (any Greeter).self) { NamedGreeter(id: 2, label: "good day") }
            live(container) {
                #expect(Reader().dependencyFormal.greet() == "good day")
                #expect(Reader().injectedFormal.greet() == "good day")
            }
        }

        @Test("a task bound to a child container reads the child's registration, then its parent's")
        func childContainers() {
            let parent = Container()
            parent.register((any Greeter).self) { LiveGreeter(id: 1) }
            parent.register("formal", (any Greeter).self) { NamedGreeter(id: 2, label: "parent") }
            let child = Container(parent: parent)
            child.register((any Greeter).self) { LiveGreeter(id: 3) }
            live(child) {
                #expect(Reader().dependencyGreeter.id == 3)
                #expect(Reader().injectedGreeter.id == 3)
                #expect(Reader().dependencyFormal.greet() == "parent")
                #expect(Reader().injectedFormal.greet() == "parent")
            }
            live(parent) { #expect(Reader().dependencyGreeter.id == 1) }
        }

        @Test("with no registration and no fallback, resolveLive() throws the container's error")
        func missingThrows() throws {
            let container = Container()
            container.register((any Greeters).self) { GreetersImpl() }
            let error = try Container.withShared(container) {
                try #require(throws: DIError.self) { try GreeterKey.resolveLive() }
            }
            guard case .dependencyNotFound(let type, _, _) = error else {
                Issue.record("expected dependencyNotFound, got \(error)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier((any Greeter).self))
            #expect(error.description.contains("Greeters")) // the look-alike registration
        }

        @Test("a fallback does not hide a missing dependency of the registration's factory")
        func fallbackIsForTheKeyOnly() throws {
            let container = Container()
            container.register(NeedsMissing.self) {
                _ = try container.resolveOrThrow((any Clock2).self)
                return NeedsMissing()
            }
            let error = try Container.withShared(container) {
                try #require(throws: DIError.self) { try NeedsMissingKey.resolveLive() }
            }
            #expect(error.description.contains("Clock2"))
            // Nothing registered at all: the fallback.
            _ = try Container.withShared(Container()) { try NeedsMissingKey.resolveLive() }
        }

        @Test("a read with no registration and no fallback stops with the container's message")
        func missingTraps() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Container.shared.register((any Greeters).self) { GreetersImpl() }
                _ = withDependencies {
                    $0.context = .live
                } operation: {
                    Reader().dependencyGreeter
                }
            }
            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(stderr.contains("The bridged dependency WeaveDIDependenciesTests.GreeterKey could not provide"))
            #expect(stderr.contains("Greeters"))
            #expect(stderr.contains("give its `DependencyBridge` a `fallback`"))
        }
    }

    @Suite("Dependencies bridge: a registration with an async factory", .capturesLog)
    struct BridgeAsyncFactoryTests {
        @Test("cannot be read, even built; the instance it built, registered, can")
        func asyncFactoryIsAnError() async throws {
            let container = Container()
            container.registerAsync((any Greeter).self, scope: .singleton) { LiveGreeter(id: 3) as any Greeter }
            let built = try await container.resolveAsync((any Greeter).self)
            let failure = Container.withShared(container) { Result { try GreeterKey.resolveLive() } }
            guard case .failure(DIError.asyncResolutionRequired(let type, _)) = failure else {
                Issue.record("expected asyncResolutionRequired, got \(failure)")
                return
            }
            #expect(ObjectIdentifier(type) == ObjectIdentifier((any Greeter).self))
            #expect(!capturedProblems(mentioning: "registered with an async factory").isEmpty)
            // What the article and the trap advise: build it in bootstrap, register the instance.
            let bootstrapped = Container()
            bootstrapped.register((any Greeter).self, instance: built)
            live(bootstrapped) {
                #expect(Reader().dependencyGreeter.id == 3)
                #expect(Reader().injectedGreeter.id == 3)
            }
        }

        @Test("a read stops with advice a wrapper's user can follow, not 'resolve it with resolveAsync'")
        func asyncFactoryTrapAdvice() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                Container.shared.registerAsync((any Greeter).self) { LiveGreeter(id: 3) as any Greeter }
                _ = withDependencies {
                    $0.context = .live
                } operation: {
                    Reader().injectedGreeter
                }
            }
            let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(stderr.contains("The bridged dependency WeaveDIDependenciesTests.GreeterKey could not provide"))
            #expect(stderr.contains("A bridged read is synchronous, so it cannot run an async factory"))
            #expect(stderr.contains("register it with `register(_:instance:)`"))
        }
    }

    protocol Greeters: Sendable {}
    struct GreetersImpl: Greeters {}

    @Suite("Dependencies bridge: one override reaches both worlds")
    struct BridgeOverrideTests {
        @Test("withDependencies is seen by @Injected, withInjectedValues by @Dependency")
        func bothDirections() {
            live {
                withDependencies {
                    $0.greeter = FixedGreeter("from dependencies")
                } operation: {
                    #expect(Reader().injectedGreeter.greet() == "from dependencies")
                    #expect(Reader().dependencyGreeter.greet() == "from dependencies")
                }
                withInjectedValues {
                    $0.greeter = FixedGreeter("from injected")
                } operation: {
                    #expect(Reader().dependencyGreeter.greet() == "from injected")
                    #expect(Reader().injectedGreeter.greet() == "from injected")
                }
            }
        }

        @Test("the innermost override wins, in both worlds, whichever world set it")
        func innermostWins() {
            live {
                withDependencies {
                    $0.greeter = FixedGreeter("outer")
                } operation: {
                    withInjectedValues {
                        $0.greeter = FixedGreeter("inner")
                    } operation: {
                        #expect(Reader().dependencyGreeter.greet() == "inner")
                        #expect(Reader().injectedGreeter.greet() == "inner")
                        withDependencies {
                            $0.greeter = FixedGreeter("innermost")
                        } operation: {
                            #expect(Reader().dependencyGreeter.greet() == "innermost")
                            #expect(Reader().injectedGreeter.greet() == "innermost")
                        }
                        // An inner override of another key keeps this one.
                        withDependencies {
                            $0.formalGreeter = FixedGreeter("other")
                        } operation: {
                            #expect(Reader().dependencyGreeter.greet() == "inner")
                            #expect(Reader().injectedGreeter.greet() == "inner")
                        }
                    }
                }
            }
        }

        @Test("child tasks see the override; it ends with the operation; other tasks keep their own")
        func taskScope() async {
            let container = Container()
            container.register((any Greeter).self) { LiveGreeter(id: 1) }
            await Container.withShared(container) {
                await withDependencies {
                    $0.context = .live
                } operation: {
                    await withTaskGroup(of: Void.self) { group in
                        for index in 0..<20 {
                            group.addTask {
                                let mock = FixedGreeter("task \(index)")
                                if index.isMultiple(of: 2) {
                                    await withDependencies {
                                        $0.greeter = mock
                                    } operation: {
                                        await Task.yield()
                                        let child = await Task { Reader().injectedGreeter.greet() }.value
                                        #expect(child == "task \(index)")
                                        async let childDependency = Reader().dependencyGreeter.greet()
                                        #expect(await childDependency == "task \(index)")
                                    }
                                } else {
                                    await withInjectedValues {
                                        $0.greeter = mock
                                    } operation: {
                                        await Task.yield()
                                        let child = await Task { Reader().dependencyGreeter.greet() }.value
                                        #expect(child == "task \(index)")
                                        async let childInjected = Reader().injectedGreeter.greet()
                                        #expect(await childInjected == "task \(index)")
                                    }
                                }
                                // Over: the container's again.
                                #expect(Reader().dependencyGreeter.greet() == "live 1")
                                #expect(Reader().injectedGreeter.greet() == "live 1")
                            }
                        }
                    }
                }
            }
        }
    }

    @Suite("Dependencies bridge: reads skip a world's lookup only while no override in it exists")
    struct BridgeOverrideLivenessTests {
        @Test("an override outlives its scope where it is held; once nothing holds one, the count is 0")
        func heldOverridesAreSeenAfterTheirScope() async {
            // A fresh process: no other test's override is alive, so a read takes the path that
            // skips a world's lookup as soon as the counts allow it. Without the counts (or with a
            // count that dropped when the scope ended), the reads after the scopes would get the
            // container's greeter instead of the override.
            await #expect(processExitsWith: .success) {
                let container = Container()
                container.register((any Greeter).self) { LiveGreeter(id: 1) }
                let results: [Bool] = await Container.withShared(container) {
                    await withDependencies {
                        $0.context = .live
                    } operation: {
                        // One gate per task: an `AsyncStream` has one consumer.
                        let (gate1, open1) = AsyncStream<Void>.makeStream()
                        let (gate2, open2) = AsyncStream<Void>.makeStream()
                        // Created inside each override, read after the override's scope ended.
                        let (fromDependencies, holder) = withDependencies {
                            $0.greeter = FixedGreeter("dependencies")
                        } operation: {
                            (
                                Task { () -> [String] in
                                    for await _ in gate1 { break }
                                    return [Reader().injectedGreeter.greet(), Reader().dependencyGreeter.greet()]
                                }, Reader()
                            )
                        }
                        let fromInjected = withInjectedValues {
                            $0.greeter = FixedGreeter("injected")
                        } operation: {
                            Task { () -> [String] in
                                for await _ in gate2 { break }
                                return [Reader().dependencyGreeter.greet(), Reader().injectedGreeter.greet()]
                            }
                        }
                        var checks = [
                            // Both scopes ended; the tasks and the holder still hold their override
                            // (`withInjectedValues` applied its own to `DependencyValues`).
                            overrideCount(GreeterKey.self) == 2,
                            overrideCount(GreeterKey.self, at: BridgeOverrides.inInjected) == 0,
                            Reader().injectedGreeter.greet() == "live 1",
                            // `@Dependency` keeps the values current when it was created.
                            holder.dependencyGreeter.greet() == "dependencies",
                        ]
                        open1.finish()
                        open2.finish()
                        checks.append(await fromDependencies.value == ["dependencies", "dependencies"])
                        checks.append(await fromInjected.value == ["injected", "injected"])
                        return checks
                    }
                }
                // Nothing holds an override any more: both worlds' lookups are skipped again, and
                // the next override is seen at once.
                let after = [
                    overrideCount(GreeterKey.self) == 0,
                    overrideCount(GreeterKey.self, at: BridgeOverrides.inInjected) == 0,
                    withDependencies {
                        $0.greeter = FixedGreeter("next")
                    } operation: {
                        Reader().injectedGreeter.greet() == "next"
                    },
                ]
                if (results + after).contains(false) { exit(1) }
            }
        }
    }

    @Suite("Dependencies bridge: test and preview values follow swift-dependencies' context")
    struct BridgeContextTests {
        @Test("a test process is swift-dependencies' .test context: both read the bridge's testValue")
        func testContext() {
            @Dependency(\.context) var context
            #expect(context == .test)
            let container = Container()
            container.register((any Greeter).self) { LiveGreeter(id: 1) }
            Container.withShared(container) {
                #expect(Reader().dependencyContext.greet() == "test")
                #expect(Reader().injectedContext.greet() == "test")
                // No testValue: the container, as a test registered it.
                #expect(Reader().dependencyGreeter.id == 1)
                #expect(Reader().injectedGreeter.id == 1)
            }
        }

        @Test("the context set with withDependencies picks the value in both worlds")
        func previewAndLive() {
            Container.withShared(Container()) {
                withDependencies {
                    $0.context = .preview
                } operation: {
                    #expect(Reader().dependencyContext.greet() == "preview")
                    #expect(Reader().injectedContext.greet() == "preview")
                }
                withDependencies {
                    $0.context = .live
                } operation: {
                    #expect(Reader().dependencyContext.greet() == "fallback")
                    #expect(Reader().injectedContext.greet() == "fallback")
                }
            }
        }

        @Test("in a process where no bridged key was ever overridden, reads still follow the context")
        func contextBeforeAnyOverride() async {
            // A child process: no bridged key was overridden in it, so reads take the path that
            // skips both worlds' override lookups, except where the context can pick a value.
            await #expect(processExitsWith: .success) {
                let container = Container()
                container.register((any Greeter).self) { LiveGreeter(id: 1) }
                let results = Container.withShared(container) {
                    [
                        Reader().dependencyContext.greet() == "test", Reader().injectedContext.greet() == "test",
                        Reader().dependencyGreeter.id == 1, Reader().injectedGreeter.id == 1,
                        withDependencies {
                            $0.context = .preview
                        } operation: {
                            Reader().injectedContext.greet() == "preview"
                        },
                        // The first override of the process is seen by the other world at once.
                        withDependencies {
                            $0.greeter = FixedGreeter("first")
                        } operation: {
                            Reader().injectedGreeter.greet() == "first"
                        },
                        withInjectedValues {
                            $0.formalGreeter = FixedGreeter("first")
                        } operation: {
                            Reader().dependencyFormal.greet() == "first"
                        },
                    ]
                }
                if results.contains(false) { exit(1) }
            }
        }

        @Test("an override beats the test value, in both worlds")
        func overrideBeatsTestValue() {
            withInjectedValues {
                $0.contextGreeter = FixedGreeter("mock")
            } operation: {
                #expect(Reader().dependencyContext.greet() == "mock")
                #expect(Reader().injectedContext.greet() == "mock")
            }
        }
    }
#endif
