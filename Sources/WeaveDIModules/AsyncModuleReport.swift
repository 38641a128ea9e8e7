import Foundation
import WeaveDICore

/// What ``AsyncModuleGroup`` made: the modules that succeeded and the definitions that failed.
/// One failure never stops the others.
public struct AsyncModuleReport: Sendable, CustomStringConvertible {
    /// The modules made, in definition order.
    public let modules: [Module]
    /// The labels of the definitions that succeeded, in definition order.
    public let loaded: [String]
    /// The definitions that failed, with their errors, in definition order.
    public let failures: [AsyncModuleFailure]
    /// Seconds the whole group took.
    public let duration: TimeInterval

    /// Whether every definition succeeded.
    public var allSucceeded: Bool { failures.isEmpty }

    /// The failure of the definition labelled `label`, if it failed.
    public func failure(for label: String) -> AsyncModuleFailure? {
        failures.first { $0.label == label }
    }

    /// A one-line summary: how many succeeded, each failure, and the duration.
    public var description: String {
        var text = "\(loaded.count) async modules made"
        if !failures.isEmpty {
            text += ", \(failures.count) failed: " + failures.map(\.description).joined(separator: "; ")
        }
        return text + String(format: " (%.3f ms)", duration * 1000)
    }
}
