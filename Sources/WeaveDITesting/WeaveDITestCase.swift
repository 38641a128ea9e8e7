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
    /// Guarantees: for each test method, a new root container is made, bound as
    /// `Container.shared` (through `Container.withShared`) around `setUp`, the test and `tearDown`,
    /// prepared by the app's `AutoRegistering.registerAllServices()` (when it adopts it) and then
    /// filled by ``registerDependencies(in:)``, whose registrations therefore win; the overrides of ``overrideInjectedValues(_:)``
    /// apply for the same span. Tests never see each other's registrations, nor the process-wide
    /// container's.
    open class WeaveDITestCase: XCTestCase {
        private var isolatedContainer: WeaveDI.Container?

        /// The container bound as `Container.shared` during the current test.
        public var container: WeaveDI.Container {
            isolatedContainer ?? WeaveDI.Container.shared
        }

        /// Registers what every test of the class needs. Runs before `setUp`, with the test's
        /// container bound as `Container.shared`, after `AutoRegistering` (so what it registers
        /// replaces the app's registrations). Does nothing unless overridden.
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
                // A cycle through the app's registerAllServices() is reported again, as an
                // error, by the first resolution that meets it.
                try? container.ensureAutoRegistered()
                registerDependencies(in: container)
                withInjectedValues({ overrideInjectedValues(&$0) }, operation: { super.invokeTest() })
            }
        }
    }

    extension XCTestCase {
        /// Runs `operation` with a new container, set up by `configure` (after `AutoRegistering`, so
        /// its registrations win), as `Container.shared`; for tests that do not subclass
        /// ``WeaveDITestCase``. Returns what `operation` returns.
        public func withIsolatedContainer<R>(
            _ configure: (WeaveDI.Container) throws -> Void = { _ in },
            operation: () throws -> R
        ) rethrows -> R {
            let container = WeaveDI.Container()
            return try WeaveDI.Container.withShared(container) {
                try? container.ensureAutoRegistered()
                try configure(container)
                return try operation()
            }
        }

        /// Runs the async `operation` with a new container, set up by `configure` (after
        /// `AutoRegistering`), as `Container.shared`. Returns what `operation` returns.
        public func withIsolatedContainer<R>(
            _ configure: (WeaveDI.Container) throws -> Void = { _ in },
            isolation: isolated (any Actor)? = #isolation,
            operation: () async throws -> R
        ) async rethrows -> R {
            let container = WeaveDI.Container()
            return try await WeaveDI.Container.withShared(container, isolation: isolation) {
                try? container.ensureAutoRegistered()
                try configure(container)
                return try await operation()
            }
        }
    }
#endif
