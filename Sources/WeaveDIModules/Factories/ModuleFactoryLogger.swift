import WeaveDICore

/// Where ``ModuleFactoryManager`` reports its progress when the app hands it a logger
/// (``ModuleFactoryManager/init(environment:configuration:logger:)``): setting up the factories,
/// validating, each batch and each registered module.
///
/// An app's own logger conforms as it is when it has these two methods:
///
/// ```swift
/// extension ConsoleLogger: ModuleFactoryLogger {}
/// ```
///
/// Messages are called from the task running the manager and, for ``debug(_:)``, from the
/// concurrent tasks registering modules, hence `Sendable`. The steps other than batches also go to
/// WeaveDI's own log (`swift-log`, label "WeaveDI") at its ``DILogLevel/all`` level, where the
/// container logs each registration itself.
public protocol ModuleFactoryLogger: Sendable {
    /// A step of setup or registration: starting, module counts, validation passed, each batch,
    /// completion.
    func info(_ message: String)
    /// One module registered (one call per module, possibly from several tasks at once).
    func debug(_ message: String)
}
