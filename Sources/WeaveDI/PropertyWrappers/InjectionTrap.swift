/// The messages the trapping injection APIs stop the program with.
///
/// Each names the wanted type, the property and its owner, why resolution failed (with
/// look-alike registrations for a missing one) and what to do.
enum InjectionTrap {
    static func message(
        wrapper: String,
        type: Any.Type,
        name: String?,
        owner: String,
        site: SourceLocation,
        error: DIError
    ) -> String {
        let typeName = String(describing: type)
        var text = "\(wrapper) could not provide \(ResolutionFrame.displayName(type, name))"
        text += " to \(owner) (declared at \(site)): \(error.description)"
        if case .dependencyNotFound = error {
            text += " The registration must exist before the first read: make it in"
            text += " `WeaveDI.Container.bootstrap` or `AutoRegistering.registerAllServices()` (in tests,"
            text += " the `.container { ... }` trait), or declare the property `@Inject var …: \(typeName)?`"
            text += " if the dependency may be missing."
        }
        return text
    }
}
