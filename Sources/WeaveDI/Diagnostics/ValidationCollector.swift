/// Where a validation sandbox reports failures instead of the app's hooks and log.
final class ValidationCollector: Sendable {
    struct Failure {
        let error: DIError
        /// The registration whose factory was running when the failure happened, if any.
        let dependent: ResolutionFrame?
    }

    private let failures = Locked<[Failure]>([])

    func collect(_ error: DIError, dependent: ResolutionFrame?) {
        failures.withLock { $0.append(Failure(error: error, dependent: dependent)) }
    }

    var all: [Failure] { failures.current }
}
