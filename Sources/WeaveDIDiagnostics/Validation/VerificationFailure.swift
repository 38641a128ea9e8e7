import WeaveDICore

/// A type ``Container/verify(_:)`` could not resolve, and why.
public struct VerificationFailure: Sendable, CustomStringConvertible {
    /// The type that was asked for.
    public let type: Any.Type
    /// The type as messages spell it (`MyApp.DatabaseService`).
    public let typeName: String
    /// Why it could not be resolved: it is not registered, something it needs is missing, a
    /// cycle, or a factory threw.
    public let error: DIError

    /// "`MyApp.DatabaseService` cannot be resolved: …".
    public var description: String { "\(typeName) cannot be resolved: \(error.description)" }
}
