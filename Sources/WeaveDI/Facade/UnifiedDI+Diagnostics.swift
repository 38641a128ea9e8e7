import Foundation
import WeaveDICore

extension UnifiedDI {
    /// Validates the shared container: see ``Container/validate()``.
    public static func validate() -> ValidationReport {
        Container.shared.validate()
    }

    /// Validates the shared container and throws the report when it found anything: see
    /// ``Container/validateOrThrow(allowingCaptiveDependencies:)``.
    public static func validateOrThrow(allowingCaptiveDependencies: Bool = false) throws(ValidationError) {
        try Container.shared.validateOrThrow(allowingCaptiveDependencies: allowingCaptiveDependencies)
    }

    /// The types of `types` the shared container cannot resolve, with why: see ``Container/verify(_:)``.
    public static func verify(_ types: [Any.Type]) -> [VerificationError.Failure] {
        Container.shared.verify(types)
    }

    /// Throws when the shared container cannot resolve some of `types`: see ``Container/verifyOrThrow(_:)``.
    public static func verifyOrThrow(_ types: [Any.Type]) throws(VerificationError) {
        try Container.shared.verifyOrThrow(types)
    }

    /// The shared container's dependency graph as observed so far: see ``Container/dependencyGraph()``.
    public static func dependencyGraph() -> DependencyGraph {
        Container.shared.dependencyGraph()
    }

    /// Runs the health checks of the shared container's services: see ``Container/checkHealth(timeout:)``.
    public static func checkHealth(timeout: TimeInterval = 5) async -> [String: HealthStatus] {
        await Container.shared.checkHealth(timeout: timeout)
    }
}
