import WeaveDICore

/// The messages the trapping injection APIs stop the program with.
///
/// Each names the wanted type, where it was declared, why resolution failed (with look-alike
/// registrations for a missing one) and what to do.
enum InjectionTrap {
    /// A property wrapper's (`@RequiredInject`, a non-optional `@Factory` or `@Injected`): names
    /// the property's owner, and for a missing registration says when to make it and which
    /// optional declaration reads `nil` instead.
    static func message(
        wrapper: String,
        type: Any.Type,
        name: String?,
        owner: String,
        site: RegistrationSite,
        error: DIError
    ) -> String {
        let optionalType = TypeNames.optionalSpelling(type)
        var text = "\(wrapper) could not provide \(ResolutionFrame.displayName(type, name))"
        text += " to \(owner) (declared at \(site)): \(error.description)"
        if case .dependencyNotFound = error {
            // The optional form of the same wrapper, except that @RequiredInject's is @Inject.
            let optionalForm = wrapper == "@RequiredInject" ? "@Inject" : wrapper
            text += " The registration must exist before the first read: make it in"
            text += " `WeaveDI.Container.bootstrap` or `AutoRegistering.registerAllServices()` (in tests,"
            text += " the `.container { ... }` trait), or declare the property `\(optionalForm) var …: \(optionalType)`"
            text += " if the dependency may be missing."
        }
        return text
    }

    /// A `Factory` key's `callAsFunction()` with no value to return: names the key's type and
    /// where it is declared, then the inner failure (what its default threw: the missing type, the
    /// cycle's path, the factory's error).
    static func keyMessage(type: Any.Type, site: RegistrationSite, error: DIError) -> String {
        "The Factory<\(TypeNames.qualified(type))> key declared at \(site) has no value to return: \(error.description)"
            + " Call the key's `resolveOrThrow()` to get this failure as an error instead of a trap."
    }
}
