import WeaveDICore

/// How the property-wrapper form of `Factory<Wrapped?>` (`@Factory var x: Wrapped?`, and
/// `@Injected var x: Wrapped?`) works: through the registration of `Wrapped`, `nil` without one.
///
/// Made once per property by ``OptionalValue/wrapperForm(as:)``, which knows `Wrapped`; `T` is the
/// property's type, `Wrapped?` itself.
@usableFromInline
struct OptionalWrapperForm<T>: Sendable {
    /// `Wrapped`.
    let wrapped: Any.Type
    /// Resolves `Wrapped` under the key (`Wrapped`'s, with the property's name): its value, or
    /// `nil` when nothing is registered (the miss is reported, as `Container.resolve` reports
    /// one) or when the factory registered through the property's `register` returned `nil`.
    /// Other failures are thrown, unreported.
    @usableFromInline let resolve: @Sendable (Container, RegistryKey) throws(DIError) -> T
    /// `nil`, as a `T`.
    let none: @Sendable () -> T
    /// Registers a factory of `Wrapped?` as the registration of `Wrapped` under the key (for a
    /// context, when one is given).
    let register:
        @Sendable (Container, RegistryKey, Scope, RegistrationContext?, RegistrationSite, @escaping @Sendable () -> T)
            -> RegistrationHandle
}

/// `Optional`, recognised from generic code that does not know its type is one.
protocol OptionalValue {
    /// The property-wrapper form's behaviour for a property of type `T`, which must be `Self`.
    static func wrapperForm<T>(as _: T.Type) -> OptionalWrapperForm<T>
}

/// Thrown by a factory registered through an optional property's `register` when it returns `nil`.
struct FactoryReturnedNil: Error, CustomStringConvertible {
    /// The wrapped type the factory was registered for.
    let type: Any.Type

    var description: String {
        "the factory registered through an optional Factory<\(TypeNames.qualified(type))?> returned nil"
    }
}

extension Optional: OptionalValue {
    static func wrapperForm<T>(as _: T.Type) -> OptionalWrapperForm<T> {
        // `T` is `Self` (asserted here), so the casts below reinterpret a value as its own type.
        assert(T.self == Self.self, "OptionalValue.wrapperForm(as:) needs the optional type itself")
        return OptionalWrapperForm(
            wrapped: Wrapped.self,
            resolve: { container, key throws(DIError) in
                unsafeBitCast(try resolveWrapped(in: container, key: key), to: T.self)
            },
            none: { unsafeBitCast(Self.none, to: T.self) },
            register: { container, key, scope, context, site, factory in
                let unwrapping = { @Sendable () throws -> Wrapped in
                    guard let value = unsafeBitCast(factory(), to: Self.self) else {
                        throw FactoryReturnedNil(type: Wrapped.self)
                    }
                    return value
                }
                if let context {
                    return container.store(key: key, scope: scope, context: context, site: site, factory: unwrapping)
                }
                return container.store(key: key, scope: scope, dependencies: [], site: site, factory: unwrapping)
            })
    }

    /// `Wrapped`'s registration under `key`, or `nil` when there is none (see
    /// ``OptionalWrapperForm/resolve``).
    static func resolveWrapped(in container: Container, key: RegistryKey) throws(DIError) -> Self {
        do {
            return try container.resolveCore(key: key, type: Wrapped.self)
        } catch {
            switch error {
            case .dependencyNotFound(let type, let name, _) where type == Wrapped.self && name == key.name:
                container.report(error)
                return nil
            case .factoryFailed(let type, let name, let underlying)
            where type == Wrapped.self && name == key.name && underlying is FactoryReturnedNil:
                return nil
            default:
                throw error
            }
        }
    }
}
