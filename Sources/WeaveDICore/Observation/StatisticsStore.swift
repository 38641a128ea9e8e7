import Foundation

/// Misses and timings per registration key (resolution counts live in the registrations, where
/// the resolution path counts them under a lock it already holds).
package final class StatisticsStore: Sendable {
    package struct Entry {
        package var type: Any.Type
        package var misses = 0
        package var timed = 0
        package var total: TimeInterval = 0
        package var slowest: TimeInterval = 0
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

    package var snapshot: [RegistryKey: Entry] { entries.current }

    package func removeAll() { entries.withLock { $0.removeAll() } }
}
