// Registration contexts: a registration made `in: .test` (or `.preview`, `.debug`, a launch
// argument) replaces the plain registration of its key while its context is active. Whether a
// context is active is decided per resolution from, in order: the current task's forcing
// (`Container.withContexts`), the app's declaration (`Container.declaredContexts`), and the
// process's signals (`ProcessSignals`, the one detection `InjectedKey` uses too), which count
// only while `Container.detectsContexts` is on (by default only in a debug build of WeaveDI).

import Atomics
import Foundation

/// When a registration applies: a context registration (`register(T.self, in: .test) { … }`)
/// replaces the plain registration of its type and name while its context is active.
///
/// A context is active for a resolution when the current task forced it on with
/// ``Container/withContexts(_:disabling:exclusively:operation:)-(_,_,_,()->R)``, or else when the
/// app declared it with ``Container/declaredContexts``, or else when WeaveDI detects it and
/// ``Container/detectsContexts`` is on. Detection is on by default only in a **debug** build of
/// WeaveDI, so in a release build no context is active unless the app or a task asks for it.
/// A task's forcing can also turn a context off.
///
/// What WeaveDI detects:
/// - ``test``: the process runs tests: `swift test` (XCTest or Swift Testing, Linux or macOS),
///   Xcode's test runner, or any process that loaded XCTest or Swift Testing. The same detection
///   chooses an `InjectedKey`'s `testValue`.
/// - ``preview``: an Xcode preview (`XCODE_RUNNING_FOR_PREVIEWS=1`).
/// - ``debug``: WeaveDI itself was compiled with `DEBUG` (a debug build of the package; Xcode and
///   SwiftPM build packages in the app's configuration, a prebuilt binary keeps its own).
/// - ``argument(_:)``: the process was launched with that exact argument.
/// - ``custom(_:)``: never detected; active only when declared or forced.
///
/// When several context registrations of one key are active, the most specific wins:
/// a launch argument, then a custom context, then ``preview``, then ``test``, then ``debug``
/// (among several arguments or custom contexts, the one registered first).
public struct RegistrationContext: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    enum Kind: Hashable, Sendable {
        case test, preview, debug
        case argument(String)
        case custom(String)
    }

    @usableFromInline let kind: Kind

    init(kind: Kind) { self.kind = kind }

    /// Active while the process runs tests (and in any task that forces it).
    public static let test = RegistrationContext(kind: .test)
    /// Active in Xcode previews (`XCODE_RUNNING_FOR_PREVIEWS=1`).
    public static let preview = RegistrationContext(kind: .preview)
    /// Active in a debug build of WeaveDI (see the type's documentation for what that means).
    public static let debug = RegistrationContext(kind: .debug)

    /// Active when the process was launched with `name` among its arguments
    /// (`ProcessInfo.processInfo.arguments`), compared exactly: `.argument("-mockAPI")`.
    public static func argument(_ name: String) -> RegistrationContext { RegistrationContext(kind: .argument(name)) }

    /// A context of the app's own, never detected: active only when declared with
    /// ``Container/declaredContexts`` or forced with
    /// ``Container/withContexts(_:disabling:exclusively:operation:)-(_,_,_,()->R)``.
    public static func custom(_ name: String) -> RegistrationContext { RegistrationContext(kind: .custom(name)) }

    public var description: String {
        switch kind {
        case .test: return "test"
        case .preview: return "preview"
        case .debug: return "debug"
        case .argument(let name): return "argument(\(name))"
        case .custom(let name): return "custom(\(name))"
        }
    }

    /// Where the context stands among several active ones: lower wins.
    var precedence: Int {
        switch kind {
        case .argument: return 0
        case .custom: return 1
        case .preview: return 2
        case .test: return 3
        case .debug: return 4
        }
    }

    /// Whether this context is active for the current task (see the type's documentation).
    public var isActive: Bool { ContextState.isActive(self) }

    /// Whether WeaveDI detects this context in the process, whatever ``Container/detectsContexts``
    /// says (the signals alone).
    public var isDetected: Bool { ContextState.signals.shows(self) }
}

/// What the process shows about its context, read once: the one detection behind registration
/// contexts and `InjectedKey`'s test and preview values.
package struct ProcessSignals: Sendable {
    /// The process runs tests.
    package let isTest: Bool
    /// The process is an Xcode preview.
    package let isPreview: Bool
    /// WeaveDI was compiled with `DEBUG`.
    package let isDebugBuild: Bool
    /// The launch arguments.
    package let arguments: Set<String>

    package init(isTest: Bool, isPreview: Bool, isDebugBuild: Bool, arguments: Set<String>) {
        self.isTest = isTest
        self.isPreview = isPreview
        self.isDebugBuild = isDebugBuild
        self.arguments = arguments
    }

    /// This process's signals.
    package static let process: ProcessSignals = {
        let info = ProcessInfo.processInfo
        let environment = info.environment
        let arguments = info.arguments
        #if DEBUG
            let debug = true
        #else
            let debug = false
        #endif
        return ProcessSignals(
            isTest: isTestRun(
                environment: environment, processName: info.processName, arguments: arguments,
                isTypeLoaded: { _typeByName($0) != nil }),
            isPreview: isPreview(environment: environment), isDebugBuild: debug, arguments: Set(arguments))
    }()

    /// Mangled names of types only a test runner loads: `XCTest.XCTestCase` and `Testing.Test`.
    package static let testRunnerTypes = ["6XCTest0A4CaseC", "7Testing4TestV"]

    /// Xcode previews set `XCODE_RUNNING_FOR_PREVIEWS=1`.
    package static func isPreview(environment: [String: String]) -> Bool {
        environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1"
    }

    /// Whether the process runs tests. Recognised by any of: Xcode's XCTest environment
    /// variables; the runner's process (`*.xctest` bundles on Linux and Windows, `xctest` and
    /// `swiftpm-testing-helper` on macOS); SwiftPM's `--testing-library` argument; or XCTest's or
    /// Swift Testing's types being loaded. Several signals keep the answer right when one of them
    /// is missing on some platform or runner (the XCTest environment variables alone are absent
    /// under `swift test`).
    package static func isTestRun(
        environment: [String: String], processName: String, arguments: [String], isTypeLoaded: (String) -> Bool
    ) -> Bool {
        let testVariables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        if testVariables.contains(where: { environment[$0] != nil }) { return true }
        let name = processName.lowercased()
        if name.hasSuffix(".xctest") || name == "xctest" || name == "swiftpm-testing-helper" { return true }
        if arguments.contains("--testing-library") { return true }
        return testRunnerTypes.contains(where: isTypeLoaded)
    }

    /// Whether these signals show `context` (detection alone).
    func shows(_ context: RegistrationContext) -> Bool {
        switch context.kind {
        case .test: return isTest
        case .preview: return isPreview
        case .debug: return isDebugBuild
        case .argument(let name): return arguments.contains(name)
        case .custom: return false
        }
    }
}

/// The process-wide and task-local state that decides which contexts are active.
enum ContextState {
    /// ``Container/detectsContexts`` (on in a debug build of WeaveDI).
    static let detects: ManagedAtomic<Bool> = {
        #if DEBUG
            return ManagedAtomic(true)
        #else
            return ManagedAtomic(false)
        #endif
    }()

    /// ``Container/declaredContexts``.
    static let declared = Locked<Set<RegistrationContext>>([])
    /// Whether ``declared`` is not empty: until the app declares a context, a resolution takes
    /// no lock for it.
    static let anyDeclared = ManagedAtomic<Bool>(false)

    /// Set, and never cleared, by the first forcing: until then no task-local is read.
    static let forcingUsed = ManagedAtomic<Bool>(false)

    /// The current task's forcing, innermost last applied.
    @TaskLocal static var forced: Forcing?

    /// The signals used by detection: the process's, or, inside
    /// ``withSignals(_:operation:)`` (tests), the ones given there.
    @TaskLocal static var signalsOverride: ProcessSignals?

    static var signals: ProcessSignals {
        forcingUsed.load(ordering: .relaxed) ? signalsOverride ?? ProcessSignals.process : ProcessSignals.process
    }

    /// What a task forced: contexts on, contexts off, and whether everything else is off.
    /// (Arrays, not sets: a task forces a few contexts, and comparing them costs less than
    /// hashing one on every resolution.)
    struct Forcing: Sendable {
        var enabled: [RegistrationContext] = []
        var disabled: [RegistrationContext] = []
        var exclusive = false
    }

    /// Whether `context` is active for the current task.
    static func isActive(_ context: RegistrationContext) -> Bool {
        if forcingUsed.load(ordering: .relaxed), let forcing = forced {
            if forcing.enabled.contains(context) { return true }
            if forcing.disabled.contains(context) || forcing.exclusive { return false }
        }
        if anyDeclared.load(ordering: .relaxed), declared.withLock({ $0.contains(context) }) { return true }
        return detectsNow && signals.shows(context)
    }

    /// Whether detection counts for the current task: ``Container/detectsContexts``, or the value
    /// given to ``withSignals(_:detects:operation:)``.
    static var detectsNow: Bool {
        if forcingUsed.load(ordering: .relaxed), let override = detectsOverride { return override }
        return detects.load(ordering: .relaxed)
    }

    /// Set by ``withSignals(_:detects:operation:)``.
    @TaskLocal static var detectsOverride: Bool?

    /// The forcing in effect after applying `enabling`, `disabling` and `exclusively` to the
    /// current one (a nested call changes only what it names, unless exclusive).
    static func forcing(enabling: Set<RegistrationContext>, disabling: Set<RegistrationContext>, exclusively: Bool)
        -> Forcing
    {
        if !forcingUsed.load(ordering: .relaxed) { forcingUsed.store(true, ordering: .relaxed) }
        var forcing = (exclusively ? nil : forced) ?? Forcing()
        forcing.exclusive = forcing.exclusive || exclusively
        forcing.enabled.removeAll { disabling.contains($0) || enabling.contains($0) }
        forcing.disabled.removeAll { enabling.contains($0) || disabling.contains($0) }
        forcing.enabled += enabling
        forcing.disabled += disabling
        return forcing
    }

    /// Runs `operation` with detection reading `signals` instead of the process's, and, when
    /// `detects` is given, counting or not as it says instead of ``Container/detectsContexts``
    /// (for tests: launch arguments, a preview, a release build, without changing the process
    /// or what parallel tests see).
    package static func withSignals<R>(_ signals: ProcessSignals, detects: Bool? = nil, operation: () throws -> R)
        rethrows -> R
    {
        if !forcingUsed.load(ordering: .relaxed) { forcingUsed.store(true, ordering: .relaxed) }
        return try $signalsOverride.withValue(signals) {
            try $detectsOverride.withValue(detects ?? detectsNow, operation: operation)
        }
    }
}

extension Container {
    /// Whether WeaveDI's detection of contexts counts (process-wide): `true` by default in a debug
    /// build of WeaveDI, `false` in a release build, where a context is active only when
    /// ``declaredContexts`` or a task's
    /// ``withContexts(_:disabling:exclusively:operation:)-(_,_,_,()->R)`` says so. Set it to
    /// `true` to let detection count in a release build (`swift test -c release` relies on it
    /// for `.test` registrations), or to `false` to ignore detection in a debug build.
    public static var detectsContexts: Bool {
        get { ContextState.detects.load(ordering: .relaxed) }
        set { ContextState.detects.store(newValue, ordering: .relaxed) }
    }

    /// Contexts the app declares active for the whole process, in any build (a UI-test launch
    /// configuration, a demo build): `Container.declaredContexts = [.custom("demo")]`. Empty by
    /// default. A task's forcing still overrides it.
    public static var declaredContexts: Set<RegistrationContext> {
        get { ContextState.declared.withLock { $0 } }
        set {
            ContextState.declared.withLock {
                $0 = newValue
                ContextState.anyDeclared.store(!newValue.isEmpty, ordering: .relaxed)
            }
        }
    }

    /// Runs `operation` with `contexts` active and `disabling` inactive for the current task and
    /// the tasks it creates (a task-local value, so parallel tests do not see each other's), in
    /// any build. With `exclusively`, every context not in `contexts` is inactive too (detection
    /// and declarations are ignored). Calls nest: an inner call changes only what it names.
    ///
    /// ```swift
    /// Container.withContexts([.test]) { container.resolve(APIClient.self) }   // the .test one
    /// Container.withContexts(disabling: [.test]) { container.resolve(APIClient.self) } // the live one
    /// ```
    public static func withContexts<R>(
        _ contexts: Set<RegistrationContext> = [],
        disabling: Set<RegistrationContext> = [],
        exclusively: Bool = false,
        operation: () throws -> R
    ) rethrows -> R {
        let forcing = ContextState.forcing(enabling: contexts, disabling: disabling, exclusively: exclusively)
        return try ContextState.$forced.withValue(forcing, operation: operation)
    }

    /// Runs the async `operation` with `contexts` forced active and `disabling` inactive for the
    /// current task and the tasks it creates; see the synchronous form.
    public static func withContexts<R>(
        _ contexts: Set<RegistrationContext> = [],
        disabling: Set<RegistrationContext> = [],
        exclusively: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        let forcing = ContextState.forcing(enabling: contexts, disabling: disabling, exclusively: exclusively)
        return try await ContextState.$forced.withValue(forcing, operation: operation, isolation: isolation)
    }
}
