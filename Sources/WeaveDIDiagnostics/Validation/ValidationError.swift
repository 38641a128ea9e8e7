import Foundation
import WeaveDICore

/// Thrown by ``Container/validateOrThrow(allowingCaptiveDependencies:)``: the graph has problems,
/// all of them in ``report``.
public struct ValidationError: Error, CustomStringConvertible, LocalizedError {
    /// Everything validation found.
    public let report: ValidationReport

    /// The report, one problem per line.
    public var description: String { report.description }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
