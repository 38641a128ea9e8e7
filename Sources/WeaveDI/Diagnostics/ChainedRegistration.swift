/// One registration as diagnostics walk them: the record, where it is stored, and the container
/// (this one or a parent) that owns it. `@unchecked Sendable`: the slot is a pointer into the
/// owner's registry, valid while `owner` (kept here) is alive, and used only under its lock.
struct ChainedRegistration: @unchecked Sendable {
    let key: RegistryKey
    let record: RegistrationRecord
    let slot: TypeSlot
    let owner: Container
}
