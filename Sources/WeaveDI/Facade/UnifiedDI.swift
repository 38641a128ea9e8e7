import Foundation

/// The shared container behind a static, one-line API.
///
/// Every call goes to `WeaveDI.Container.shared`. `DI` names the same type; pick one spelling per
/// codebase.
///
/// ```swift
/// UnifiedDI.register(UserRepository.self) { UserRepositoryImpl() }
/// let repository = UnifiedDI.resolve(UserRepository.self)
/// ```
public enum UnifiedDI {
    /// Registers `factory` for `type` in the shared container (transient unless `scope` says otherwise).
    @discardableResult
    public static func register<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        Container.shared.register(type, scope: scope, file: file, line: line, factory: factory)
    }

    /// Registers `factory` for `type` under `name` in the shared container.
    @discardableResult
    public static func register<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) -> RegistrationHandle {
        Container.shared.register(name, type, scope: scope, file: file, line: line, factory: factory)
    }

    /// Registers every registration the builder lists.
    ///
    /// ```swift
    /// UnifiedDI.registerMany {
    ///     Registration(UserUseCase.self) { UserUseCaseImpl() }
    ///     Registration(LoggerProtocol.self, default: OSLogLogger())
    ///     Registration(AnalyticsService.self, condition: !isDebug,
    ///                  factory: { FirebaseAnalytics() }, fallback: { NoOpAnalytics() })
    /// }
    /// ```
    public static func registerMany(@RegistrationBuilder _ registrations: () -> [Registration]) {
        let container = Container.shared
        for registration in registrations() { registration.register(into: container) }
    }

    /// Resolves `type` from the shared container, or `nil` (the failure reaches `onResolutionError`).
    @inlinable
    public static func resolve<T>(_ type: T.Type) -> T? {
        Container.shared.resolve(type)
    }

    /// Resolves the registration of `type` made under `name`.
    @inlinable
    public static func resolve<T>(_ name: String, _ type: T.Type) -> T? {
        Container.shared.resolve(name, type)
    }

    /// Resolves `type` or throws a ``DIError`` saying why it could not.
    @inlinable
    public static func resolveOrThrow<T>(_ type: T.Type) throws -> T {
        try Container.shared.resolveOrThrow(type)
    }

    /// Resolves `type`, or stops the program with a message naming the type, look-alike
    /// registrations and how to register it. Use only where a missing registration is a bug.
    public static func requireResolve<T>(_ type: T.Type, file: StaticString = #fileID, line: UInt = #line) -> T {
        Container.shared.requireResolve(type, file: file, line: line)
    }

    /// Resolves `type` and records its duration in ``statistics()`` (and the slow-resolution hook).
    public static func resolveWithTracking<T>(_ type: T.Type) -> T? {
        Container.shared.resolveWithTracking(type)
    }

    /// Empties the shared container, releasing every registration and cached instance.
    public static func releaseAll() async {
        Container.shared.reset()
    }

    /// Resolution statistics of the shared container.
    public static func statistics() -> [ResolutionStatistics] {
        Container.shared.statistics()
    }

    // MARK: Logging and hooks

    /// Chooses what WeaveDI logs (through swift-log, label "WeaveDI"); `.errors` by default.
    public static func setLogLevel(_ level: DILogLevel) {
        DiagnosticsCenter.shared.logLevel = level
    }

    /// The current log level.
    public static var logLevel: DILogLevel { DiagnosticsCenter.shared.logLevel }

    /// Calls `handler` with the type's name and the duration in seconds whenever building an
    /// instance takes at least the slow-resolution threshold (10 ms unless changed with
    /// ``setSlowResolutionThreshold(_:)``). While any such hook is installed, factory runs are timed.
    @discardableResult
    public static func onSlowResolution(_ handler: @escaping @Sendable (String, TimeInterval) -> Void) -> HookToken {
        DiagnosticsCenter.shared.onSlowResolution(handler)
    }

    /// Sets the duration, in seconds, from which a resolution counts as slow.
    public static func setSlowResolutionThreshold(_ seconds: TimeInterval) {
        DiagnosticsCenter.shared.slowThreshold = seconds
    }

    /// Calls `handler` with the type's name and the error for every failed resolution, in any
    /// container: not registered, a cycle, a factory that threw, a scope that ended.
    @discardableResult
    public static func onResolutionError(_ handler: @escaping @Sendable (String, DIError) -> Void) -> HookToken {
        DiagnosticsCenter.shared.onResolutionError(handler)
    }

    /// Calls `handler` when the process is under memory pressure.
    @discardableResult
    public static func onMemoryPressure(_ handler: @escaping @Sendable () -> Void) -> HookToken {
        DiagnosticsCenter.shared.onMemoryPressure(handler)
    }
}

/// Another name for ``UnifiedDI``.
public typealias DI = UnifiedDI
