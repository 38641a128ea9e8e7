#if canImport(Testing)
    import Testing
    import WeaveDI

    /// A Swift Testing trait that overrides ``InjectedValues`` for one test.
    ///
    /// ```swift
    /// @Test(.injectedValues { $0.apiClient = MockAPIClient() })
    /// func fetchesUser() async throws {
    ///     let user = try await UserService().fetchUser(id: "123")
    ///     #expect(user.id == "123")
    /// }
    /// ```
    ///
    /// Guarantees: the test (each case of a parameterized test, each test of a suite the trait is
    /// applied to) runs inside `withInjectedValues(update)`, so `@Injected(\.…)` and
    /// `InjectedValues.current` in the test and the child tasks and `Task {}`s it creates (not
    /// `Task.detached`, other threads or dispatch queues) see the overrides, and nothing
    /// outside the test does: parallel tests may override the same key differently.
    public struct InjectedValuesTrait: TestTrait, SuiteTrait, TestScoping {
        let update: @Sendable (inout InjectedValues) -> Void

        /// Applied to a suite, the trait overrides the values for every test in it.
        public var isRecursive: Bool { true }

        /// Runs `function` with the overridden values.
        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            try await withInjectedValues(update) {
                try await function()
            }
        }
    }

    extension Trait where Self == InjectedValuesTrait {
        /// Overrides ``InjectedValues`` entries for the test, as `update` sets them.
        public static func injectedValues(_ update: @escaping @Sendable (inout InjectedValues) -> Void) -> Self {
            InjectedValuesTrait(update: update)
        }
    }
#endif
