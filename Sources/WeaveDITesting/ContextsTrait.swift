#if canImport(Testing)
    import Testing
    import WeaveDI

    /// A Swift Testing trait that forces registration contexts on or off for one test.
    ///
    /// ```swift
    /// @Test(.contexts(disabling: [.test]))   // the live registrations, in a test process
    /// func usesTheLiveClient() throws { … }
    ///
    /// @Test(.contexts([.preview], exclusively: true))   // exactly what a preview sees
    /// func previewData() throws { … }
    /// ```
    ///
    /// Guarantees: the test (each case of a parameterized test, each test of a suite the trait is
    /// applied to) runs inside `Container.withContexts(contexts, disabling:, exclusively:)`, so
    /// resolutions in the test and the child tasks and `Task {}`s it creates (not
    /// `Task.detached`, other threads or dispatch queues) choose context registrations as forced,
    /// and nothing outside the test does: parallel tests may force different contexts.
    public struct ContextsTrait: TestTrait, SuiteTrait, TestScoping {
        let enabled: Set<RegistrationContext>
        let disabled: Set<RegistrationContext>
        let exclusively: Bool

        /// Applied to a suite, the trait forces the contexts for every test in it.
        public var isRecursive: Bool { true }

        /// Runs `function` with the contexts forced.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            try await Container.withContexts(enabled, disabling: disabled, exclusively: exclusively) {
                try await function()
            }
        }
    }

    extension Trait where Self == ContextsTrait {
        /// Forces `contexts` active and `disabling` inactive for the test; with `exclusively`,
        /// every other context is inactive too (see `Container.withContexts`).
        public static func contexts(
            _ contexts: Set<RegistrationContext> = [],
            disabling: Set<RegistrationContext> = [],
            exclusively: Bool = false
        ) -> Self {
            ContextsTrait(enabled: contexts, disabled: disabling, exclusively: exclusively)
        }
    }
#endif
