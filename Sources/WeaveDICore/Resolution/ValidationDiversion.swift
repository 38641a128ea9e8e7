// Validation resolves every registration in a sandbox, a copy of the container chain. Factories may
// have captured the original containers, so while a validation runs, resolutions its thread (or
// its task and their child tasks) asks of any container of the chain are diverted to the sandbox.
// The diversion lives in the thread's resolution stack or in a task-local value; the root
// container's auto-registration word carries a bit while any validation diverts, so resolutions
// elsewhere pay one relaxed load (`Container.divertedTarget()`). Failures met in the sandbox go to
// its collector instead of the app's hooks and log.

extension Container {
    /// `validate()`'s part: while `body` runs, resolutions the current thread asks of a container
    /// in `sandboxes` (the validated container, its parents, the containers `Container.shared`
    /// stands for) are made in that container's sandbox. One asked of a container other than
    /// this one is noted in `sink` (the validated container's factories reached outside it).
    package func divertResolutions<R>(
        to sandboxes: [(real: Container, sandbox: Container)], sink: ValidationCollector, _ body: () -> R
    ) -> R {
        let stack = ResolutionStack.current
        let diversion = ValidationDiversion(sandboxes, validated: identity, sink: sink, outer: stack.validation)
        let homes = Container.roots(of: sandboxes.map(\.real))
        stack.validation = diversion
        for home in homes { home.setDiverted(+1) }
        defer {
            for home in homes { home.setDiverted(-1) }
            stack.validation = diversion.outer
        }
        return body()
    }

    /// `validateAsync()`'s part: while `body` runs, resolutions the current task (and the tasks
    /// it creates) asks of a container in `sandboxes` are made in its sandbox, on whatever thread
    /// they run.
    package func divertResolutionsAsync<R>(
        to sandboxes: [(real: Container, sandbox: Container)], sink: ValidationCollector, _ body: () async -> R
    ) async -> R {
        let diversion = ValidationDiversion(sandboxes, validated: identity, sink: sink, outer: ValidationDiversion.task)
        let homes = Container.roots(of: sandboxes.map(\.real))
        for home in homes { home.setDiverted(+1) }
        defer { for home in homes { home.setDiverted(-1) } }
        return await ValidationDiversion.$task.withValue(diversion) { await body() }
    }

    /// The distinct root containers of `containers` (each holds the diverted bit its children share).
    private static func roots(of containers: [Container]) -> [Container] {
        var seen = Set<ObjectIdentifier>()
        return containers.map { $0.root ?? $0 }.filter { seen.insert($0.identity).inserted }
    }

    /// Counts the validations diverting this root's resolutions; the bit is set while any does.
    /// (Called on the root, whose lock guards the word its children share.)
    func setDiverted(_ change: Int) {
        autoRegistration.withLock { control in
            control.diversions += change
            let state = autoRegistrationState
            let bit = control.diversions > 0 ? Container.divertedBit : 0
            autoRegistrationWord.store(state.rawValue | bit, ordering: .releasing)
        }
    }
}

/// Which containers a validating thread's resolutions are diverted from, and to which sandbox
/// each (nested validations keep the outer one).
final class ValidationDiversion: @unchecked Sendable {
    /// The diversion `validateAsync()` set up for the current task (a thread's is in its
    /// resolution stack). Immutable once made, hence shareable with child tasks.
    @TaskLocal static var task: ValidationDiversion?

    /// Real container -> its sandbox.
    let sandboxes: [ObjectIdentifier: Container]
    /// The container being validated: a resolution asked of any other is a reach outside it.
    let validated: ObjectIdentifier
    let sink: ValidationCollector
    let outer: ValidationDiversion?

    init(
        _ pairs: [(real: Container, sandbox: Container)], validated: ObjectIdentifier, sink: ValidationCollector,
        outer: ValidationDiversion?
    ) {
        var sandboxes: [ObjectIdentifier: Container] = [:]
        for pair in pairs { sandboxes[pair.real.identity] = pair.sandbox }
        self.sandboxes = sandboxes
        self.validated = validated
        self.sink = sink
        self.outer = outer
    }

    func target(for container: Container) -> Container? {
        sandboxes[container.identity] ?? outer?.target(for: container)
    }

    /// `container`'s sandbox, noting a resolution asked of a container other than the validated
    /// one (by the factory running on this thread, if any).
    func targetNotingReach(for container: Container) -> Container? {
        guard let sandbox = sandboxes[container.identity] else { return outer?.targetNotingReach(for: container) }
        if container.identity != validated {
            sink.noteReach(of: container.identity, by: ResolutionStack.current.top)
        }
        return sandbox
    }
}

/// Where a validation sandbox reports failures instead of the app's hooks and log.
package final class ValidationCollector: Sendable {
    package struct Failure {
        package let error: DIError
        /// The registration whose factory was running when the failure happened, if any.
        package let dependent: ResolutionFrame?
        /// The sandbox that met it (which stands for one real container).
        package let sandbox: ObjectIdentifier?
    }

    /// A resolution asked of a container other than the validated one.
    package struct Reach: Hashable {
        /// The real container asked.
        package let container: ObjectIdentifier
        /// The registration whose factory asked, if any.
        package let dependent: String?
    }

    package init() {}

    private let failures = Locked<[Failure]>([])
    private let reaches = Locked<[Reach]>([])

    package func collect(_ error: DIError, dependent: ResolutionFrame?, sandbox: ObjectIdentifier? = nil) {
        // A miss's look-alikes are read now: unread, they would keep the sandbox that met the
        // miss alive, and the sandbox keeps this collector (a reference cycle, leaked).
        var error = error
        if case .dependencyNotFound(let type, let name, let similar) = error, similar.isDeferred {
            error = .dependencyNotFound(type, name: name, similar: DIError.LookAlikes(similar.names))
        }
        failures.withLock { $0.append(Failure(error: error, dependent: dependent, sandbox: sandbox)) }
    }

    func noteReach(of container: ObjectIdentifier, by dependent: ResolutionFrame?) {
        let reach = Reach(container: container, dependent: dependent?.displayName)
        reaches.withLock { if !$0.contains(reach) { $0.append(reach) } }
    }

    package var all: [Failure] { failures.current }

    /// The resolutions asked of containers other than the validated one, in the order first met.
    package var allReaches: [Reach] { reaches.current }
}
