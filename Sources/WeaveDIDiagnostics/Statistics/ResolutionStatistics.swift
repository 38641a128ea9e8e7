import Foundation
import WeaveDICore

/// Resolution counts and timings for one registration (or one missing type that was asked for),
/// as ``Container/statistics()`` reports them.
public struct ResolutionStatistics: Sendable, Hashable, CustomStringConvertible {
    /// The type (and name) the numbers are about, e.g. `MyApp.Cache["images"]`.
    public let typeName: String
    /// Whether the type (and name) is registered in the container.
    public let isRegistered: Bool
    /// How many times the current registration was resolved (served, cached or built), counted
    /// from when it was registered.
    public var resolutions: Int
    /// How many times it was asked for while not registered here or in a parent.
    public var misses: Int
    /// How many resolutions were timed: factory runs while timing is on (a slow-resolution hook is
    /// installed or warnings are logged) and `resolveWithTracking` calls, each counted once.
    public var timedResolutions: Int
    /// Total seconds of the timed resolutions.
    public var totalDuration: TimeInterval
    /// The slowest timed resolution, in seconds.
    public var slowestDuration: TimeInterval

    /// The mean of the timed resolutions, in seconds (0 when none was timed).
    public var averageDuration: TimeInterval {
        timedResolutions == 0 ? 0 : totalDuration / Double(timedResolutions)
    }

    /// One line: counts, then average and slowest duration in milliseconds.
    public var description: String {
        "\(typeName): \(resolutions) resolutions, \(misses) misses, avg \(String(format: "%.3f", averageDuration * 1000)) ms, max \(String(format: "%.3f", slowestDuration * 1000)) ms"
    }
}
