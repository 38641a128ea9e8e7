import WeaveDICore

/// Everything ``Container/validate()`` found, all at once.
///
/// Validation resolves every registration once in a sandbox (see ``Container/validate()``), so
/// the report covers the whole graph, not just the parts the app has used so far.
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// How many registrations were resolved (this container's and its parents').
    public let validatedCount: Int
    /// Dependencies that are not registered: asked for by a factory, or declared by a module.
    public let missingDependencies: [MissingDependency]
    /// Cycles, each with its whole path.
    public let cycles: [DependencyCycle]
    /// Singletons holding transient, weak or custom-scoped instances.
    public let captiveDependencies: [CaptiveDependency]
    /// Factories that threw.
    public let failingFactories: [FactoryFailure]
    /// Failures of any other kind met while resolving (a scope used after it ended).
    public let otherFailures: [DIError]
    /// The whole dependency graph, as resolving every registration revealed it.
    public let graph: DependencyGraph
    /// Registrations with an async factory that this validation did not build: ``Container/validate()``
    /// cannot await, so it leaves them to ``Container/validateAsync()``, which builds them too.
    /// Empty in a report of `validateAsync()`. Not counted as problems.
    public internal(set) var unbuiltAsyncRegistrations: [String] = []

    /// The missing dependencies that modules declared in `dependencies:`.
    public var missingDeclaredDependencies: [MissingDependency] { missingDependencies.filter(\.isDeclared) }

    /// Whether nothing at all was found.
    public var isValid: Bool { issueCount == 0 }

    /// The number of problems found, of every kind.
    public var issueCount: Int {
        missingDependencies.count + cycles.count + captiveDependencies.count + failingFactories.count
            + otherFailures.count
    }

    /// A summary line, then one line per problem, grouped by kind.
    public var description: String {
        var lines = [
            isValid
                ? "Dependency graph is valid: \(validatedCount) registrations resolved."
                : "Dependency graph has \(issueCount) problem(s) in \(validatedCount) registrations:"
        ]
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            lines.append("\(title):")
            lines.append(contentsOf: items.map { "  - \($0)" })
        }
        section("Missing dependencies", missingDependencies.map(\.description))
        section("Cycles", cycles.map(\.description))
        section("Captive dependencies", captiveDependencies.map(\.description))
        section("Factories that threw", failingFactories.map(\.description))
        section("Other failures", otherFailures.map(\.description))
        section("Not built (async factories; use validateAsync())", unbuiltAsyncRegistrations)
        return lines.joined(separator: "\n")
    }
}
