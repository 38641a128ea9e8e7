import WeaveDICore

// Shapes of WeaveDI 3.x apps that contradict the guides or duplicate an existing spelling: each
// fails to compile with a one-line message naming what to write instead (Swift otherwise gives
// an unrelated diagnostic, or none: `resolve(…) ?? register(…)` stopped the compiler).

/// Not available: `UnifiedDI.register` defers creation until resolution and returns a
/// ``RegistrationHandle``, never the instance.
@available(
    *, unavailable,
    message:
        "UnifiedDI.register returns a RegistrationHandle, not an instance: register first, then use UnifiedDI.resolve(T.self) ?? fallback"
)
public func ?? <T>(lhs: T?, rhs: @autoclosure () throws -> RegistrationHandle) -> T {
    unavailableShape()
}

/// Not available: WeaveDI has no registration builder; ``UnifiedDI/registerMany(_:)`` lists
/// registrations.
@available(
    *, unavailable,
    message:
        "WeaveDI has no builder: use UnifiedDI.registerMany { Registration(P.self) { A() }; Registration(Q.self) { B() } }"
)
public var builder: UnavailableRegistrationBuilder { unavailableShape() }

/// The type of the unavailable `WeaveDI.builder`: its calls type-check so that Swift reports the
/// message naming ``UnifiedDI/registerMany(_:)`` rather than a missing member.
@available(
    *, unavailable,
    message:
        "WeaveDI has no builder: use UnifiedDI.registerMany { Registration(P.self) { A() }; Registration(Q.self) { B() } }"
)
public struct UnavailableRegistrationBuilder {
    /// Not available (see ``builder``).
    @available(
        *, unavailable,
        message:
            "WeaveDI has no builder: use UnifiedDI.registerMany { Registration(P.self) { A() }; Registration(Q.self) { B() } }"
    )
    public func register<T>(_ factory: () -> T) -> Self { unavailableShape() }

    /// Not available (see ``builder``).
    @available(
        *, unavailable,
        message:
            "WeaveDI has no builder: use UnifiedDI.registerMany { Registration(P.self) { A() }; Registration(Q.self) { B() } }"
    )
    public func register<T>(_ type: T.Type, _ factory: () -> T) -> Self { unavailableShape() }

    /// Not available (see ``builder``).
    @available(
        *, unavailable,
        message:
            "WeaveDI has no builder: use UnifiedDI.registerMany { Registration(P.self) { A() }; Registration(Q.self) { B() } }"
    )
    public func configure() { unavailableShape() }
}

/// Not available: the container is `WeaveDI.Container`, configured with
/// `WeaveDI.Container.bootstrap`.
@available(
    *, unavailable,
    message:
        "AppWeaveDI is not part of WeaveDI: extend WeaveDI.Container and register in WeaveDI.Container.bootstrap { container in … }"
)
public enum AppWeaveDI {
    /// Not available (see ``AppWeaveDI``).
    public typealias Container = WeaveDICore.Container
}

extension Container {
    /// Not available: ``Container/bootstrap(isolation:_:)`` configures the shared container.
    @available(
        *, unavailable,
        message: "registerDependencies is WeaveDI.Container.bootstrap { container in … } (await it once at launch)"
    )
    public func registerDependencies(_ configure: @Sendable (Container) async throws -> Void) async {
        unavailableShape()
    }
}
