import Foundation
import WeaveDICore

extension Container {
    /// Runs a `Factory` key's default with its scope; what the default throws fails the resolution
    /// (a `DIError` as it is, another error as `factoryFailed`). A transient default runs directly
    /// (with cycle detection, like any factory) and is never stored, so keys cost no registry space
    /// until they are scoped. A scoped default is installed once in the root container — never
    /// displacing what is there, so a concurrent `register` wins — and resolved from there, so a
    /// `.singleton` default is built once per root container. A scoped default that fails runs
    /// once per resolution, and nothing is kept: the next resolution runs it again.
    ///
    /// A default that cannot fail never fails here, whatever runs meanwhile (`reset()`,
    /// re-registration): the installed record is resolved through directly, never looked up again
    /// after it was installed, so the call returns the instance of the record that was installed
    /// when the call found or installed it.
    @inlinable
    func resolveFactoryDefault<T>(
        _ makeDefault: @escaping @Sendable () throws -> T,
        key: RegistryKey,
        scope: Scope,
        site: @autoclosure () -> RegistrationSite
    ) throws(DIError) -> T {
        if scope.tag == .transient { return try runFactory(makeDefault, key: key, type: T.self) }
        // (A validation sandbox, when this thread validates this container: it installs there.)
        let home = try (root ?? self).resolutionTarget()
        // A custom scope's instance is chosen through the container the caller named (the
        // request may be bound on it, below the root); other lifetimes do not look.
        let requester: Container? = scope.tag == .custom && home !== self ? self : nil
        do {
            if let requester { return try home.resolveCore(key: key, type: T.self, requester: requester) }
            return try home.resolveCore(key: key, type: T.self)
        } catch {
            return try home.installFactoryDefault(
                makeDefault, key: key, scope: scope, site: site(), requester: requester, after: error)
        }
    }

    /// The slow path of ``resolveFactoryDefault(_:key:scope:site:)``, in the home container, after
    /// resolving `key` failed with `error`.
    ///
    /// Both "the default is not installed yet" and "the installed default ran and a resolution
    /// inside it missed" are a `dependencyNotFound`, and a record seen now may have been installed
    /// by another thread after this one missed it. So the installed default marks, on its thread,
    /// the miss it threw: a marked miss is the resolution's failure (running the default again
    /// would only repeat it, and report it twice); an unmarked one is the default's absence:
    /// install it (unless another thread did) and resolve.
    @usableFromInline
    func installFactoryDefault<T>(
        _ makeDefault: @escaping @Sendable () throws -> T,
        key: RegistryKey,
        scope: Scope,
        site: RegistrationSite,
        requester: Container?,
        after error: DIError
    ) throws(DIError) -> T {
        let ranAndMissed = FailedFactoryDefault.take(key.id, matching: error)
        guard case .dependencyNotFound = error, !ranAndMissed else { throw error }
        let id = key.id
        do {
            return try resolveInstallingIfAbsent(key: key, scope: scope, site: site, requester: requester) {
                () throws -> T in
                do {
                    return try makeDefault()
                } catch {
                    if let error = error as? DIError, case .dependencyNotFound = error {
                        FailedFactoryDefault.mark(id, error)
                    }
                    throw error
                }
            }
        } catch {
            _ = FailedFactoryDefault.take(id, matching: error)
            throw error
        }
    }
}

/// The miss the installed scoped default of which key last threw on the current thread (see
/// `Container.installFactoryDefault`). Touched on failure paths only. A mark is taken by the
/// resolution whose default set it; one left by another route (a validation resolving every
/// registration) can only be mistaken for a later failure that is the same miss of the same key.
enum FailedFactoryDefault {
    private static let slot = "WeaveDI.FailedFactoryDefault"

    private final class Mark {
        let id: UInt
        let error: DIError

        init(id: UInt, error: DIError) {
            self.id = id
            self.error = error
        }
    }

    /// Notes that the installed default of the key with registry id `id` threw `error` here.
    static func mark(_ id: UInt, _ error: DIError) {
        Thread.current.threadDictionary[slot] = Mark(id: id, error: error)
    }

    /// Whether this thread's mark is `id`'s, for the same failure as `error`; clears the mark.
    static func take(_ id: UInt, matching error: DIError) -> Bool {
        let dictionary = Thread.current.threadDictionary
        guard let mark = dictionary[slot] as? Mark else { return false }
        dictionary.removeObject(forKey: slot)
        return mark.id == id && mark.error.isSameFailure(as: error)
    }
}
