/// Registrations that need each other, so none of them can be built.
public struct DependencyCycle: Sendable, Hashable, CustomStringConvertible {
    /// The whole cycle, first and last equal: `["A", "B", "A"]`. It starts at the alphabetically
    /// first member, so the same cycle found from different places reads the same.
    public let path: [String]
    /// Where each member of the cycle (in ``path`` order, without the repeated last one) was
    /// registered, when it is registered.
    public let sites: [RegistrationSite?]

    /// `A -> B -> A`, with where each member was registered.
    public var description: String {
        let members = zip(path, sites).map { name, site in site.map { "\(name) at \($0)" } ?? name }
        return
            "Circular dependency: \(path.joined(separator: " -> ")) (\(members.joined(separator: "; "))). Break it by resolving one side lazily or through a protocol."
    }

    /// The cycle of `path` (as a cycle error gives it, first and last equal), starting at its
    /// smallest member.
    package init(path: [String], siteOf: (String) -> RegistrationSite?) {
        var members = Array(path.dropLast())
        if path.first != path.last || members.isEmpty { members = path }
        if let start = members.indices.min(by: { members[$0] < members[$1] }) {
            members = Array(members[start...] + members[..<start])
        }
        self.path = members + (members.first.map { [$0] } ?? [])
        self.sites = members.map(siteOf)
    }
}
