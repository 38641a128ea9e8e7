#if canImport(XCTest)
    import WeaveDI
    import XCTest

    /// An `XCTestCase` whose every test runs with a container and ``InjectedValues`` of its own: the
    /// XCTest counterpart of the `.container` and `.injectedValues` traits.
    ///
    /// ```swift
    /// final class UserViewModelTests: WeaveDITestCase {
    ///     override func registerDependencies(in container: WeaveDI.Container) {
    ///         container.register(UserRepository.self) { MockUserRepository() }
    ///     }
    ///     override func overrideInjectedValues(_ values: inout InjectedValues) {
    ///         values.apiClient = MockAPIClient()
    ///     }
    ///     func testLoadUser() async { ... }
    /// }
    /// ```
    ///
    /// Guarantees: for each test method, a new empty root container is made, bound as
    /// `Container.shared` (through `Container.withShared`) around `setUp`, the test and `tearDown`,
    /// and filled by ``registerDependencies(in:)``; the overrides of ``overrideInjectedValues(_:)``
    /// apply for the same span. Tests never see each other's registrations, nor the process-wide
    /// container's.
    open class WeaveDITestCase: XCTestCase {
        private var isolatedContainer: WeaveDI.Container?

        /// The container bound as `Container.shared` during the current test.
        public var container: WeaveDI.Container {
            isolatedContainer ?? WeaveDI.Container.shared
        }

        /// Registers what every test of the class needs. Runs before `setUp`, with the test's
        /// container bound as `Container.shared`. Does nothing unless overridden.
        open func registerDependencies(in container: WeaveDI.Container) {}

        /// Overrides ``InjectedValues`` entries for every test of the class. Does nothing unless
        /// overridden.
        open func overrideInjectedValues(_ values: inout InjectedValues) {}

        /// Runs the test (with `setUp` and `tearDown`) inside its own container and injected values.
        open override func invokeTest() {
            let container = WeaveDI.Container()
            isolatedContainer = container
            defer { isolatedContainer = nil }
            WeaveDI.Container.withShared(container) {
                registerDependencies(in: container)
                withInjectedValues({ overrideInjectedValues(&$0) }, operation: { super.invokeTest() })
            }
        }
    }

    extension XCTestCase {
        /// Runs `operation` with a new container, set up by `configure`, as `Container.shared`; for
        /// tests that do not subclass ``WeaveDITestCase``. Returns what `operation` returns.
        public func withIsolatedContainer<R>(
            _ configure: (WeaveDI.Container) throws -> Void = { _ in },
            operation: () throws -> R
        ) rethrows -> R {
            let container = WeaveDI.Container()
            return try WeaveDI.Container.withShared(container) {
                try configure(container)
                return try operation()
            }
        }

        /// Runs the async `operation` with a new container, set up by `configure`, as
        /// `Container.shared`. Returns what `operation` returns.
        public func withIsolatedContainer<R>(
            _ configure: (WeaveDI.Container) throws -> Void = { _ in },
            isolation: isolated (any Actor)? = #isolation,
            operation: () async throws -> R
        ) async rethrows -> R {
            let container = WeaveDI.Container()
            return try await WeaveDI.Container.withShared(container, isolation: isolation) {
                try configure(container)
                return try await operation()
            }
        }
    }
#endif
