/// What WeaveDI logs. Set it with ``UnifiedDI/setLogLevel(_:)``.
public enum DILogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Nothing.
    case off = 0
    /// Failures: cycles, factories that threw, scopes used after they ended.
    case errors = 1
    /// Failures, plus missing registrations, replaced registrations and slow resolutions.
    case warnings = 2
    /// Everything, including each registration.
    case all = 3

    /// Orders levels from `.off` (least) to `.all` (most).
    public static func < (lhs: DILogLevel, rhs: DILogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
