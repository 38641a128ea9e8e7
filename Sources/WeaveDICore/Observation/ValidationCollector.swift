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
