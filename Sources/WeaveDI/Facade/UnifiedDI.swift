import Foundation
import WeaveDICore

/// The shared container behind a static, one-line API.
///
/// Every call goes to `WeaveDI.Container.shared`. ``DI`` is another name for this same type (the
/// same storage, the same behaviour); pick one spelling per codebase.
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

    /// Registers an async `factory` for `type` in the shared container; resolve it with
    /// ``resolveAsync(_:isolation:)`` (see ``Container/registerAsync(_:scope:file:line:factory:)-(_,_,_,_,()->T)``).
    @discardableResult
    public static func registerAsync<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        Container.shared.registerAsync(type, scope: scope, file: file, line: line, factory: factory)
    }

    /// Registers an async `factory` for `type` under `name` in the shared container.
    @discardableResult
    public static func registerAsync<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () async throws -> T
    ) -> RegistrationHandle {
        Container.shared.registerAsync(name, type, scope: scope, file: file, line: line, factory: factory)
    }

    /// Resolves `type` from the shared container with `await` (async and synchronous
    /// registrations alike; a synchronous factory runs on the caller's actor; see
    /// ``Container/resolveAsync(_:isolation:)``).
    public static func resolveAsync<T>(
        _ type: T.Type, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await Container.shared.resolveAsync(type)
    }

    /// Resolves the registration of `type` made under `name`, with `await` (a synchronous factory
    /// runs on the caller's actor).
    public static func resolveAsync<T>(
        _ name: String, _ type: T.Type, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await Container.shared.resolveAsync(name, type)
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
    public static func registerMany(@Registration.Builder _ registrations: () -> [Registration]) {
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

    /// Chooses what WeaveDI logs through swift-log (label "WeaveDI"): `.errors` (the default)
    /// logs failures (cycles, factories that threw, ended scopes, rejected duplicates);
    /// `.warnings` adds misses, replaced registrations and slow resolutions; `.all` adds every
    /// registration; `.off` logs nothing. A message is built only when its level is on, so with
    /// logging off resolution builds no strings.
    public static func setLogLevel(_ level: DILogLevel) {
        ObservationCenter.shared.logLevel = level
    }

    /// The current log level.
    public static var logLevel: DILogLevel { ObservationCenter.shared.logLevel }

    /// Calls `handler` with the type's name and the duration in seconds whenever building an
    /// instance (running its factory, nested resolutions included) or a ``resolveWithTracking(_:)``
    /// call takes at least `threshold` seconds: by default the process-wide threshold, 10 ms unless
    /// changed with ``setSlowResolutionThreshold(_:)``. While any such hook is installed, factory
    /// runs are timed; the handler runs on the resolving thread, after the instance is built.
    @discardableResult
    public static func onSlowResolution(
        threshold: TimeInterval? = nil,
        _ handler: @escaping @Sendable (String, TimeInterval) -> Void
    ) -> HookToken {
        ObservationCenter.shared.onSlowResolution(threshold: threshold, handler)
    }

    /// Sets the process-wide duration, in seconds, from which a resolution counts as slow (for
    /// hooks installed without a threshold of their own, and for the `.warnings` log).
    public static func setSlowResolutionThreshold(_ seconds: TimeInterval) {
        ObservationCenter.shared.slowThreshold = seconds
    }

    /// The process-wide slow-resolution threshold, in seconds (10 ms by default).
    public static var slowResolutionThreshold: TimeInterval { ObservationCenter.shared.slowThreshold }

    /// Calls `handler` with the type's name and the error for every failed resolution, in any
    /// container: not registered, a cycle, a factory that threw, a scope that ended.
    @discardableResult
    public static func onResolutionError(_ handler: @escaping @Sendable (String, DIError) -> Void) -> HookToken {
        ObservationCenter.shared.onResolutionError(handler)
    }

    /// Calls `handler` when the process is under memory pressure.
    ///
    /// Installing the first such hook starts watching the system; cancelling the last stops it.
    /// Apple platforms: a `DispatchSource` memory-pressure source (warning and critical levels).
    /// Linux: a PSI trigger on the process's cgroup `memory.pressure` or on `/proc/pressure/memory`
    /// (200 ms of memory stall within 2 s). Other platforms, and Linux systems without PSI, have no
    /// source: ``memoryPressureSource`` is `nil` there, and only
    /// ``reportMemoryPressure()`` calls reach the hooks. Handlers run on a background
    /// thread.
    @discardableResult
    public static func onMemoryPressure(_ handler: @escaping @Sendable () -> Void) -> HookToken {
        MemoryPressureHooks.shared.install(handler)
    }

    /// Tells the ``onMemoryPressure(_:)`` hooks that the process is under memory pressure, as the
    /// system source does by itself where the platform has one (see ``memoryPressureSource``).
    /// Call it where there is none, or to pass on a signal of your own. Registrations, singletons
    /// and scope instances stay: WeaveDI cannot know which of them are safe to rebuild. Weak-scope
    /// instances need no help: they are released as soon as nothing else holds them.
    public static func reportMemoryPressure() {
        MemoryPressureHooks.shared.report(source: "UnifiedDI.reportMemoryPressure()")
    }

    /// The system source the memory-pressure hooks are listening to, such as
    /// `"PSI trigger on /proc/pressure/memory"`; `nil` while no hook is installed or when the
    /// platform offers none.
    public static var memoryPressureSource: String? {
        MemoryPressureHooks.shared.source
    }
}

/// Another name for ``UnifiedDI``: the same type, so `DI.register` and `UnifiedDI.resolve` reach the
/// same registrations in `WeaveDI.Container.shared`, and an `extension DI` extends ``UnifiedDI``.
///
/// The guides offer both spellings; pick one per codebase. In a project with a module named `DI`,
/// unqualified `DI` still names this facade; where a module-qualified name is needed, write
/// `WeaveDI.DI` (see <doc:MultiModuleProjects>).
///
/// ```swift
/// DI.register(UserRepository.self) { UserRepositoryImpl() }
/// let repository = DI.resolve(UserRepository.self)
/// ```
public typealias DI = UnifiedDI
