// What `ParameterFactory` keys (in WeaveDI) need from the core: their registrations are ordinary
// argument registrations (`ArgumentRecord`, one parameter) under the key's own registry ids, so
// they resolve, cache per value, validate and decorate through the one registry.

import Atomics

extension Container {
    /// Resolves a `ParameterFactory` key's default, `makeDefault`, with `parameter`.
    ///
    /// The default is built in the root container (or the validation sandbox standing for it),
    /// whatever container was asked: a transient default runs there directly, with cycle
    /// detection, and is never stored; a scoped default is installed there once, as an argument
    /// registration under `key` (never displacing what is there, so a concurrent `register`
    /// wins), so shared lifetimes cache one instance per parameter value per root container. A
    /// custom scope's instance is chosen through the container that was asked.
    package func resolveParameterDefault<T, P: Sendable>(
        _ makeDefault: @escaping @Sendable (P) throws -> T,
        parameter: P,
        key: RegistryKey,
        scope: Scope,
        site: @autoclosure () -> RegistrationSite
    ) throws(DIError) -> T {
        let home = try (root ?? self).resolutionTarget()
        if scope.tag == .transient {
            return try home.runFactory({ try makeDefault(parameter) }, key: key, type: T.self)
        }
        let requester: Container? = home !== self ? self : nil
        // Installed, then resolved; a `reset()` of the root in between removes it again: install
        // once more. A miss of `T` that is not the key's absence is the default's own failure.
        while true {
            if !home.isRegistered(key: key) {
                home.storeWithParameterIfAbsent(key: key, scope: scope, site: site(), factory: makeDefault)
            }
            do {
                return try home.resolveWithArguments(key: key, as: T.self, requester: requester, parameter)
            } catch {
                guard case .dependencyNotFound = error, !home.isRegistered(key: key) else { throw error }
            }
        }
    }

    /// Adds `decorator` to the registrations under every key of `keys` in this container (a
    /// `ParameterFactory` key's overrides and its default), as one decorator: the handle removes
    /// it from all of them.
    package func decorate<T>(
        keys: [RegistryKey], type _: T.Type, site: RegistrationSite, _ decorator: @escaping @Sendable (T) throws -> T
    ) -> DecoratorHandle {
        let entry = DecoratorEntry(
            id: decoratorIDs.wrappingIncrementThenLoad(ordering: .relaxed), site: site, box: DecoratorBox(decorator))
        for key in keys { updateDecorators(of: key) { $0.append(entry) } }
        ObservationCenter.shared.noteDecoratorAdded()
        return DecoratorHandle(container: self, keys: keys, id: entry.id)
    }
}
