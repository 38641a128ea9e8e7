import WeaveDICore

#if Dependencies
    import Dependencies
#endif

/// Runs `operation` with the ``InjectedValues`` that `update` makes from the current ones.
///
/// ```swift
/// let user = try withInjectedValues { values in
///     values.apiClient = MockAPIClient()
/// } operation: {
///     try UserService().fetchUserSync(id: "123")
/// }
/// ```
///
/// Guarantees: the overrides apply to the current task (and the tasks it creates) for the
/// duration of `operation` only, and end when it returns or throws. Other tasks keep their own
/// values, so concurrent tests can override the same key differently. Calls nest: an inner call
/// starts from the outer overrides and changes only what its `update` sets. Returns what
/// `operation` returns and rethrows what `update` or `operation` throws.
///
/// With the `Dependencies` trait, overrides of bridged keys (`InjectedValues[bridged:]`) are
/// applied to swift-dependencies' `DependencyValues` as well, with `withDependencies` around
/// `operation`, so `@Dependency` reads them and swift-dependencies carries them wherever it
/// carries its own (`withEscapedDependencies`, `withDependencies(from:)`).
public func withInjectedValues<R>(
    _ update: (inout InjectedValues) throws -> Void,
    operation: () throws -> R
) rethrows -> R {
    var values = InjectedValues.current
    try update(&values)
    InjectedValues.noteOverride()
    #if Dependencies
        // Bridged keys' overrides live in `DependencyValues`, so that swift-dependencies carries
        // them wherever it carries its own (`withEscapedDependencies`, `withDependencies(from:)`).
        if let bridged = values.takeBridgedOverrides() {
            return try withDependencies {
                for entry in bridged { entry.apply(to: &$0) }
            } operation: {
                try InjectedValues.$bound.withValue(values, operation: operation)
            }
        }
    #endif
    return try InjectedValues.$bound.withValue(values, operation: operation)
}

/// Runs the async `operation` with the ``InjectedValues`` that `update` makes from the current
/// ones; see the synchronous form for the guarantees.
///
/// The closures need not be `Sendable`: they run in the caller's isolation (the main actor, for
/// a `@MainActor` test), so they may capture and change the caller's local state.
///
/// ```swift
/// await withInjectedValues { values in
///     values.apiClient = MockAPIClient()
/// } operation: {
///     let user = try await UserService().fetchUser(id: "123")
///     #expect(user.id == "123")
/// }
/// ```
public func withInjectedValues<R>(
    _ update: (inout InjectedValues) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    var values = InjectedValues.current
    try update(&values)
    InjectedValues.noteOverride()
    #if Dependencies
        // See the synchronous form.
        if let bridged = values.takeBridgedOverrides() {
            return try await withDependencies(isolation: isolation) {
                for entry in bridged { entry.apply(to: &$0) }
            } operation: {
                try await InjectedValues.$bound.withValue(values, operation: operation, isolation: isolation)
            }
        }
    #endif
    return try await InjectedValues.$bound.withValue(values, operation: operation, isolation: isolation)
}
