import Foundation
import WeaveDI

extension ShopApp {
    /// Prints the validation report, the dependency graph and the resolution statistics.
    static func printDiagnostics(_ arguments: Arguments, slowResolutions: SlowResolutionLog) throws {
        let container = Container.shared
        let statistics = container.statistics().filter { $0.resolutions > 0 || $0.misses > 0 }
        progress(6, "diagnostics: \(container.registrations.count) registrations, \(statistics.count) types resolved, "
            + "\(slowResolutions.all.count) slow resolutions")

        print("\n== Resolution statistics")
        for entry in statistics { print("  \(entry)") }
    }
}
