import Foundation

/// Resolution counts and timings for one registration, as ``Container/statistics()`` reports them.
public struct ResolutionStatistics: Sendable, Hashable, CustomStringConvertible {
    /// The type (and name) the numbers are about.
    public let typeName: String
    /// How many times it was resolved (served from a registration, cached or built).
    public var resolutions: Int
    /// How many times it was asked for while not registered.
    public var misses: Int
    /// How many resolutions were timed (factory runs while timing is on, and `resolveWithTracking`).
    public var timedResolutions: Int
    /// Total seconds of the timed resolutions.
    public var totalDuration: TimeInterval
    /// The slowest timed resolution, in seconds.
    public var slowestDuration: TimeInterval

    /// The mean of the timed resolutions, in seconds (0 when none was timed).
    public var averageDuration: TimeInterval {
        timedResolutions == 0 ? 0 : totalDuration / Double(timedResolutions)
    }

    public var description: String {
        "\(typeName): \(resolutions) resolutions, \(misses) misses, avg \(String(format: "%.3f", averageDuration * 1000)) ms, max \(String(format: "%.3f", slowestDuration * 1000)) ms"
    }
}

/// Misses and timings per registration key (resolution counts live in the registry's slots).
final class StatisticsStore: Sendable {
    struct Entry {
        var type: Any.Type
        var misses = 0
        var timed = 0
        var total: TimeInterval = 0
        var slowest: TimeInterval = 0
    }

    private let entries = Locked<[RegistryKey: Entry]>([:])

    func recordMiss(_ key: RegistryKey, type: Any.Type) {
        entries.withLock { $0[key, default: Entry(type: type)].misses += 1 }
    }

    func recordDuration(_ key: RegistryKey, type: Any.Type, seconds: TimeInterval) {
        entries.withLock {
            var entry = $0[key, default: Entry(type: type)]
            entry.timed += 1
            entry.total += seconds
            entry.slowest = max(entry.slowest, seconds)
            $0[key] = entry
        }
    }

    var snapshot: [RegistryKey: Entry] { entries.current }

    func removeAll() { entries.withLock { $0.removeAll() } }
}

extension Container {
    /// A snapshot of resolution statistics per registered type (and per missing type asked for),
    /// sorted by type name.
    public func statistics() -> [ResolutionStatistics] {
        var result: [RegistryKey: ResolutionStatistics] = [:]
        registry.forEachSlot { slot in
            let counted = slot.lock.withLock { slot.allRecords.map { ($0, slot.resolutions(of: $0)) } }
            for (record, count) in counted {
                let key = RegistryKey(anyType: record.type, name: record.name)
                result[key] = ResolutionStatistics(
                    typeName: record.displayName, resolutions: count, misses: 0,
                    timedResolutions: 0, totalDuration: 0, slowestDuration: 0)
            }
        }
        for (key, entry) in statisticsStore.snapshot {
            var stats = result[key] ?? ResolutionStatistics(
                typeName: ResolutionFrame.displayName(entry.type, key.name), resolutions: 0, misses: 0,
                timedResolutions: 0, totalDuration: 0, slowestDuration: 0)
            stats.misses += entry.misses
            stats.timedResolutions += entry.timed
            stats.totalDuration += entry.total
            stats.slowestDuration = max(stats.slowestDuration, entry.slowest)
            result[key] = stats
        }
        return result.values.sorted { $0.typeName < $1.typeName }
    }
}
