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
            let registration = name.map { "container.register(\"\($0)\", \(typeName).self) { ... }" }
                ?? "container.register(\(typeName).self) { ... }"
            text += " Register it before the property is first read, with `\(registration)` inside"
            text += " `WeaveDI.Container.bootstrap` or `AutoRegistering.registerAllServices()`"
            text += " (in tests: the `.container { ... }` trait), or declare the property"
            text += " `@Inject var …: \(typeName)?` if it may be missing."
        }
        return text
    }
}
