import Foundation
import WeaveDICore

/// Why ``FeatureModuleLoader`` could not load a feature.
public enum FeatureModuleError: Error, LocalizedError, CustomStringConvertible {
    /// Features depend on each other in a cycle; `path` starts and ends with the same feature.
    case circularDependency(path: [String])
    /// A feature that is needed is not known to the loader. `path` is the chain of features that
    /// led to it, ending with the unknown name.
    case unknownModule(String, path: [String])
    /// Two different feature types use the same name.
    case duplicateName(String, existing: String, new: String)
    /// The feature's `configure()` threw `underlying`.
    case configurationFailed(String, underlying: any Error)

    /// What went wrong, naming the features involved and what to do.
    public var description: String {
        switch self {
        case .circularDependency(let path):
            return "Feature modules depend on each other in a cycle: \(path.joined(separator: " -> ")). "
                + "Move what they share into a feature both can depend on."
        case .unknownModule(let name, let path):
            let chain = path.count > 1 ? " (needed by \(path.dropLast().joined(separator: " -> ")))" : ""
            return "Unknown feature module '\(name)'\(chain). Register it with the FeatureModuleLoader "
                + "(init(_:) or register(_:)) before loading, or fix the name in dependencies()."
        case .duplicateName(let name, let existing, let new):
            return
                "Feature module name '\(name)' is used by both \(existing) and \(new). Give each feature a unique name."
        case .configurationFailed(let name, let underlying):
            return "Feature module '\(name)' failed to configure: \(underlying)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
