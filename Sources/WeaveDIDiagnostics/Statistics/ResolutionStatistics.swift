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

extension Container {
    /// A snapshot of resolution statistics: one entry per registration in this container (not its
    /// parents) and per missing type asked for here, sorted by type name. Named registrations
    /// have entries of their own. Counts keep running while `UnifiedRegistry` optimization is on;
    /// timings are taken only while timing is on (see ``ResolutionStatistics/timedResolutions``).
    public func statistics() -> [ResolutionStatistics] {
        statisticsByKey().values.sorted { $0.typeName < $1.typeName }
    }

    /// The statistics of `type` (under `name`), or `nil` when it is neither registered here nor
    /// was asked for here.
    public func statistics<T>(for type: T.Type, name: String? = nil) -> ResolutionStatistics? {
        statisticsByKey()[RegistryKey(type, name: name)]
    }

    func statisticsByKey() -> [RegistryKey: ResolutionStatistics] {
        var result: [RegistryKey: ResolutionStatistics] = [:]
        for (key, record, count) in resolutionCounts() {
            result[key] = ResolutionStatistics(
                typeName: record.displayName, isRegistered: true, resolutions: count, misses: 0,
                timedResolutions: 0, totalDuration: 0, slowestDuration: 0)
        }
        for (key, entry) in statisticsStore.snapshot {
            var stats =
                result[key]
                ?? ResolutionStatistics(
                    typeName: ResolutionFrame.displayName(entry.type, key.name), isRegistered: false,
                    resolutions: 0, misses: 0, timedResolutions: 0, totalDuration: 0, slowestDuration: 0)
            stats.misses += entry.misses
            stats.timedResolutions += entry.timed
            stats.totalDuration += entry.total
            stats.slowestDuration = max(stats.slowestDuration, entry.slowest)
            result[key] = stats
        }
        return result
    }

    /// Sets every count and timing back to zero; registrations and instances stay.
    public func resetStatistics() {
        resetResolutionCounts()
        statisticsStore.removeAll()
    }
}
