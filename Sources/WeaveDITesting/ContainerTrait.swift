#if canImport(Testing)
    import Testing
    import WeaveDI

    /// A Swift Testing trait that gives each test a container of its own.
    ///
    /// ```swift
    /// @Test(.container { container in
    ///     container.register(UserRepository.self) { MockUserRepository() }
    /// })
    /// func loadsUser() async throws { ... }
    ///
    /// @Suite(.container { $0.register(LoggerProtocol.self) { MockLogger() } })
    /// struct UserViewModelTests { ... }   // every test gets a fresh, configured container
    /// ```
    ///
    /// Guarantees: each test (each case of a parameterized test, each test of a suite the trait is
    /// applied to) runs with a new root `Container` bound as `Container.shared` through
    /// `Container.withShared`. When the app adopts `AutoRegistering`, `registerAllServices()` runs
    /// on that container first; then the trait's closure configures it, so the test's
    /// registrations and `Factory` overrides replace the app's, never the other way round. `UnifiedDI`, `@Inject`,
    /// `@RequiredInject`, `@Factory`, `Factory` keys and `AutoRegistering` setup inside the test — and
    /// in the child tasks and `Task {}`s it creates, not `Task.detached`, other threads or dispatch
    /// queues — see only that container, so tests that register different mocks can
    /// run in parallel without seeing each other. The process-wide container is never touched.
    public struct ContainerTrait: TestTrait, SuiteTrait, TestScoping {
        let configure: @Sendable (Container) async throws -> Void

        /// Applied to a suite, the trait gives every test in it (recursively) its own container.
        public var isRecursive: Bool { true }

        /// Runs `function` with a fresh, configured container as `Container.shared`.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            let container = Container()
            try await Container.withShared(container) {
                // The app's automatic registration first: what the closure registers wins.
                try container.ensureAutoRegistered()
                try await configure(container)
                try await function()
            }
        }
    }

    extension Trait where Self == ContainerTrait {
        /// Gives the test an empty container of its own as `Container.shared`.
        public static var container: Self { ContainerTrait { _ in } }

        /// Gives the test a container of its own as `Container.shared`, set up by `configure` (which
        /// runs with that container already bound, so `UnifiedDI.register` in it works too).
        public static func container(_ configure: @escaping @Sendable (Container) async throws -> Void) -> Self {
            ContainerTrait(configure: configure)
        }
    }
#endif
