/// Adopt on `Container` to have WeaveDI call ``registerAllServices()`` by itself.
///
/// ```swift
/// extension Container: @retroactive AutoRegistering {
///     public static func registerAllServices() {
///         accountLoader.register { AccountLoader() }
///     }
/// }
/// ```
///
/// WeaveDI calls it exactly once per root container, before that container's first resolution
/// of any kind, even when the first resolution comes from a property initializer that runs
/// before any setup code, and even when many threads resolve at once. While it runs,
/// `Container.shared` is the container being prepared. After ``Container/reset()-swift.method`` it runs again
/// before the next resolution.
///
/// It never replaces what was registered in the container before it ran: a registration (or a
/// `Factory` key's override) it makes for a type and name registered earlier is skipped, so a
/// test's own setup wins. The `.container` trait, `WeaveDITestCase` and `withIsolatedContainer`
/// run it on the test's container first, then the test's configuration.
public protocol AutoRegistering {
    /// Registers the app's services. Called by WeaveDI; do not call it yourself.
    static func registerAllServices()
}
