/// What WeaveDI logs. Set it with ``UnifiedDI/setLogLevel(_:)``; the default is ``errors``.
///
/// A level is a threshold, named for what it lets through (`.warnings`: warnings and errors), not
/// the severity of one message as swift-log's `Logger.Level` is; the messages themselves go to
/// swift-log at `.error`, `.warning` or `.info`.
public enum DILogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Nothing.
    case off = 0
    /// Failures: cycles, factories that threw, scopes used after they ended. The default. In a
    /// debug build of WeaveDI it also logs, as a warning, the first miss of each type and name
    /// (a resolution that found no registration), so a forgotten registration shows up once.
    case errors = 1
    /// Failures, plus missing registrations, replaced registrations and slow resolutions.
    case warnings = 2
    /// Everything, including each registration. Setting it logs the WeaveDI version first.
    case all = 3

    /// Orders levels from `.off` (least) to `.all` (most).
    public static func < (lhs: DILogLevel, rhs: DILogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
