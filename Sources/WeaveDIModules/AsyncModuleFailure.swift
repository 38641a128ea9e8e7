import WeaveDICore

/// An async module that could not be made, and why.
public struct AsyncModuleFailure: Sendable, CustomStringConvertible {
    /// The definition's label.
    public let label: String
    /// The error its last attempt threw (``ModuleLoadingError/timedOut(after:)`` for a timeout).
    public let error: any Error

    /// The label and the error, for logs.
    public var description: String { "\(label): \(error)" }
}
