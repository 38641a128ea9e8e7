/// One registration as diagnostics walk them: the record, where it is stored, and the container
/// (this one or a parent) that owns it.
struct ChainedRegistration: Sendable {
    let key: RegistryKey
    let record: RegistrationRecord
    let slot: TypeSlot
    let owner: Container
}
