import Foundation
import WeaveDI

extension ShopApp {
    /// Why the app exits with a failure after printing its diagnostics.
    struct WiringProblems: Error, CustomStringConvertible {
        let count: Int
        var description: String { "validation found \(count) problem(s) in the wiring (see the report above)" }
    }

    /// Prints the validation report, the dependency graph and the resolution statistics, and
    /// writes the graph as DOT to `graphFile` if there is one; throws if validation found
    /// problems, so a broken wiring fails the run.
    static func printDiagnostics(_ arguments: Arguments, graphFile: GraphFile?, slowResolutions: SlowResolutionLog)
        async throws
    {
        let container = Container.shared
        // The flow's statistics, taken before the health checks resolve every service once more.
        let statistics = container.statistics().filter { $0.resolutions > 0 || $0.misses > 0 }
        // Every registration resolved once in a sandbox, async ones (the database) included: the
        // app's own singletons are untouched.
        let report = await container.validateAsync()
        let health = await container.checkHealth(timeout: 2)
        progress(
            6,
            "diagnostics: \(report.isValid ? "wiring valid" : "\(report.issueCount) wiring problem(s)") "
                + "(\(report.validatedCount) registrations, \(report.graph.edges.count) dependencies); "
                + "health: "
                + health.sorted { $0.key < $1.key }.map { "\(shortName($0.key)) \($0.value)" }.joined(separator: ", ")
                + "; \(slowResolutions.all.count) slow resolutions")

        print("\n== Validation report")
        print(report)

        switch arguments.graphFormat {
        case .mermaid:
            print("\n== Dependency graph (Mermaid)")
            print(report.graph.mermaid())
        case .dot:
            print("\n== Dependency graph (Graphviz DOT)")
            print(report.graph.dot())
        }
        if let graphFile {
            try graphFile.write(report.graph.dot())
            let path = displayPath(graphFile.path)
            print("(Graphviz DOT written to \(path); render it with `dot -Tsvg \(path) -o graph.svg`)")
        }

        print("\n== Resolution statistics (the flow)")
        for entry in statistics { print("  \(entry)") }
        for (name, seconds) in slowResolutions.all {
            print(String(format: "  slow: %@ took %.1f ms", name, seconds * 1000))
        }

        if !report.isValid { throw WiringProblems(count: report.issueCount) }
    }

    /// `Module.Type` → `Type`, for one-line summaries.
    static func shortName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
