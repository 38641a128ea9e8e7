// Validation resolves every registration in a sandbox, a copy of the container chain. Factories may
// have captured the original containers, so while a validation runs, resolutions its thread (or
// its task and their child tasks) asks of any container of the chain are diverted to the sandbox.
// The diversion lives in the thread's resolution stack or in a task-local value; the root
// container's auto-registration word carries a bit while any validation diverts, so resolutions
// elsewhere pay one relaxed load (`Container.divertedTarget()`). Failures met in the sandbox go to
// its collector instead of the app's hooks and log.

extension Container {
    /// `validate()`'s part: while `body` runs, resolutions the current thread asks of this
    /// container or one of its parents are made in `sandbox`.
    package func divertResolutions<R>(to sandbox: Container, _ body: () -> R) -> R {
        let stack = ResolutionStack.current
        let diversion = ValidationDiversion(
            sources: Set(chain.map(\.identity)), sandbox: sandbox, outer: stack.validation)
        let home = root ?? self
        stack.validation = diversion
        home.setDiverted(+1)
        defer {
            home.setDiverted(-1)
            stack.validation = diversion.outer
        }
        return body()
    }

    /// `validateAsync()`'s part: while `body` runs, resolutions the current task (and the tasks
    /// it creates) asks of this container or one of its parents are made in `sandbox`, on
    /// whatever thread they run.
    package func divertResolutionsAsync<R>(to sandbox: Container, _ body: () async -> R) async -> R {
        let diversion = ValidationDiversion(
            sources: Set(chain.map(\.identity)), sandbox: sandbox, outer: ValidationDiversion.task)
        let home = root ?? self
        home.setDiverted(+1)
        defer { home.setDiverted(-1) }
        return await ValidationDiversion.$task.withValue(diversion) { await body() }
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
/// (nested validations keep the outer one).
final class ValidationDiversion: @unchecked Sendable {
    /// The diversion `validateAsync()` set up for the current task (a thread's is in its
    /// resolution stack). Immutable once made, hence shareable with child tasks.
    @TaskLocal static var task: ValidationDiversion?

    let sources: Set<ObjectIdentifier>
    let sandbox: Container
    let outer: ValidationDiversion?

    init(sources: Set<ObjectIdentifier>, sandbox: Container, outer: ValidationDiversion?) {
        self.sources = sources
        self.sandbox = sandbox
        self.outer = outer
    }

    func target(for container: Container) -> Container? {
        sources.contains(container.identity) ? sandbox : outer?.target(for: container)
    }
}

/// Where a validation sandbox reports failures instead of the app's hooks and log.
package final class ValidationCollector: Sendable {
    package struct Failure {
        package let error: DIError
        /// The registration whose factory was running when the failure happened, if any.
        package let dependent: ResolutionFrame?
    }

    package init() {}

    private let failures = Locked<[Failure]>([])

    package func collect(_ error: DIError, dependent: ResolutionFrame?) {
        failures.withLock { $0.append(Failure(error: error, dependent: dependent)) }
    }

    package var all: [Failure] { failures.current }
}
