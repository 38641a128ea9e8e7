import Foundation

/// The look-alikes a `dependencyNotFound` error suggests.
extension Container {

    /// What a miss of `type` (under `name`) resembles, here and in parents: first the other
    /// registrations of `type` itself (its named ones when asked without a name, the unnamed one
    /// or other names when asked with one), then registered types whose names resemble `type`'s.
    package func similarRegistrations(to type: Any.Type, name: String?) -> [String] {
        let wanted = TypeNames.short(type).lowercased()
        let wantedID = RegistryKey(anyType: type).id
        var sameType = Set<String>()
        var lookAlikes = Set<String>()
        var container: Container? = self
        while let current = container {
            current.registry.forEachSlot { slot in
                let records = slot.lock.withLock { slot.allRecords }
                guard let first = records.first else { return }
                if slot.id == wantedID {
                    for record in records where record.name != name { sameType.insert(record.displayName) }
                    return
                }
                let candidate = TypeNames.qualified(first.type)
                let short = (candidate.split(separator: ".").last.map(String.init) ?? candidate).lowercased()
                if short != wanted && Container.looksAlike(short, wanted) { lookAlikes.insert(candidate) }
            }
            container = current.parent
        }
        return sameType.sorted() + lookAlikes.sorted()
    }

    static func looksAlike(_ a: String, _ b: String) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if a.contains(b) || b.contains(a) { return true }
        let distance = editDistance(Array(a.utf8), Array(b.utf8))
        return distance <= max(2, min(a.count, b.count) / 3)
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
