/// The registrations of one key once it has a context registration: the plain one (if any) and
/// one per context, each an ordinary record with its own lifetime and instances.
///
/// It takes the plain record's place in the slot, tagged ``ScopeTag/contextual``, so keys without
/// a context registration never reach this code: the resolution path's fast branches (a built
/// singleton, a transient) test the tag they already test. A resolution of this record picks the
/// entry that applies now (``selected``) and resolves it as if it were in the slot itself.
///
/// Immutable once published: a change (a registration, an unregistration) puts a new record with
/// the same entries in the slot, so a resolution that picked an entry outside the lock holds it.
final class ContextualRecord: RegistrationRecord, @unchecked Sendable {
    /// One registration of the key: the plain one (`context == nil`) or a context's.
    struct Entry {
        let context: RegistrationContext?
        let record: RegistrationRecord
        /// The registry write that made it (its handle's).
        let sequence: Int
    }

    /// The plain registration, then the context registrations in registration order.
    let entries: [Entry]

    init(entries: [Entry], type: Any.Type, name: String?) {
        self.entries = entries
        let site = entries.first?.record.site ?? RegistrationSite(fileID: "", line: 0)
        // Only reached through `resolveErased`-style callers that read the factory directly,
        // which the tag stops first.
        let refusal = ErasedFactory { () throws -> Never in throw DIError.dependencyNotFound(type, name: name) }
        super.init(
            scopeTag: .contextual, name: name, site: site, declaredDependencies: [], type: type, factory: refusal)
    }

    /// The plain registration's entry, if there is one.
    var plain: Entry? { entries.first { $0.context == nil } }

    /// The entry of `context` (`nil`: the plain one), if there is one.
    func entry(for context: RegistrationContext?) -> Entry? { entries.first { $0.context == context } }

    /// The entry a resolution uses now: the active context registration of highest precedence,
    /// else the plain one; `nil` when neither applies (the resolution then goes on to the parent).
    var selectedEntry: Entry? {
        var best: Entry?
        for entry in entries {
            guard let context = entry.context, context.isActive else { continue }
            if let current = best?.context, current.precedence <= context.precedence { continue }
            best = entry
        }
        return best ?? plain
    }

    override var selected: RegistrationRecord? { selectedEntry?.record }

    override var context: RegistrationContext? { selectedEntry?.context }

    override var inactiveContexts: [RegistrationContext?] {
        let selected = selectedEntry?.record
        return entries.filter { $0.record !== selected }.map(\.context)
    }

    override var scope: Scope { selected?.scope ?? .transient }

    override var site: RegistrationSite { selected?.site ?? super.site }

    override func contextEntries(sequence _: Int) -> [ContextualRecord.Entry] { entries }

    /// `entries` with `entry` in place of the one of its context (the plain one first, a new
    /// context's last); returns the record it replaced.
    static func replacing(_ entry: Entry, in entries: [Entry]) -> (entries: [Entry], replaced: RegistrationRecord?) {
        var entries = entries
        guard let index = entries.firstIndex(where: { $0.context == entry.context }) else {
            return (entry.context == nil ? [entry] + entries : entries + [entry], nil)
        }
        let replaced = entries[index].record
        entries[index] = entry
        return (entries, replaced)
    }

    override func freshCopy() -> RegistrationRecord {
        ContextualRecord(
            entries: entries.map { Entry(context: $0.context, record: $0.record.freshCopy(), sequence: $0.sequence) },
            type: type, name: name)
    }

    /// The slot of an entry's custom-scope cells: the plain entry keeps the slot's own (as before
    /// the key had contexts); a context's is its record's identity, so the two never share a cell.
    static func cellSlot(of record: RegistrationRecord, context: RegistrationContext?) -> UInt? {
        context == nil ? nil : UInt(bitPattern: ObjectIdentifier(record))
    }
}

extension RegistrationRecord {
    /// A record for `entries` of one key: the plain record itself when it is alone, else a
    /// ``ContextualRecord``; `nil` when there is none.
    static func combining(_ entries: [ContextualRecord.Entry], type: Any.Type, name: String?) -> RegistrationRecord? {
        if entries.isEmpty { return nil }
        if entries.count == 1, entries[0].context == nil { return entries[0].record }
        return ContextualRecord(entries: entries, type: type, name: name)
    }
}
