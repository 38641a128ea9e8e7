import WeaveDICore

extension Container {
    /// Resolves every registration (this container's and its parents') once, in an isolated
    /// sandbox, and reports every problem at once: missing dependencies (who needs what, and
    /// where the dependent was registered), cycles (the whole path), captive dependencies (a
    /// singleton holding a transient, weak or custom-scoped instance), factories that throw,
    /// dependencies modules declared that are not registered, plus the whole dependency graph.
    ///
    /// The verdict is resolution's. The sandbox mirrors the app's containers: a fresh container
    /// per container of this one's chain (each the child of its parent's), holding fresh copies
    /// of its registrations, and, when `Container.shared` is another container, a copy of that
    /// one's chain too. The resolutions (and registrations) the validating thread asks of any of
    /// those containers — a factory's captured container or parent, `Container.shared` through
    /// `UnifiedDI`, the property wrappers or `Factory` keys — are made in their copies, so each
    /// factory sees what it sees in the app. A factory that resolves from a container other than
    /// this one is listed in ``ValidationReport/outsideResolutions``, naming that container.
    /// The app's singletons, scope instances, statistics and dependency graph are untouched, and
    /// its `onResolutionError` and `onSlowResolution` hooks hear nothing. Factories do run (in the
    /// sandbox), side effects included. Other threads keep using the app's container meanwhile.
    ///
    /// Limit: work a factory sends to another thread or dispatch queue is not diverted (the
    /// `Container.shared` binding follows tasks, the diversion the validating thread).
    public func validate() -> ValidationReport {
        ValidationSandbox(copying: self).validateAll()
    }

    /// Validates like ``validate()``, and builds the registrations with async factories too
    /// (awaiting them in the sandbox): missing dependencies, cycles (within a task and across
    /// tasks), captive dependencies and failing factories of the async part of the graph are
    /// reported like the rest.
    ///
    /// The resolutions the validating task (and the tasks it creates) asks of this container or
    /// its parents are made in the sandbox, from any thread.
    public func validateAsync() async -> ValidationReport {
        await ValidationSandbox(copying: self).validateAllAsync()
    }

    /// Validates like ``validate()`` and throws a ``ValidationError`` carrying the whole report
    /// when it found anything. For tests and start-up:
    ///
    /// ```swift
    /// try WeaveDI.Container.shared.validateOrThrow()
    /// ```
    ///
    /// - Parameter allowingCaptiveDependencies: when `true`, captive dependencies alone do not
    ///   make it throw (they stay in the report).
    public func validateOrThrow(allowingCaptiveDependencies: Bool = false) throws(ValidationError) {
        let report = validate()
        let problems = report.issueCount - (allowingCaptiveDependencies ? report.captiveDependencies.count : 0)
        if problems > 0 { throw ValidationError(report: report) }
    }

    /// Resolves each of `types` (unnamed) in a sandbox like ``validate()``'s and returns those
    /// that cannot be resolved, with why, in the order given; empty when all resolve. Nothing is
    /// built in this container.
    ///
    /// ```swift
    /// let missing = WeaveDI.Container.shared.verify([DatabaseService.self, Logger.self])
    /// ```
    public func verify(_ types: [Any.Type]) -> [VerificationError.Failure] {
        let sandbox = ValidationSandbox(copying: self)
        return types.compactMap { type in
            sandbox.resolve(type).map {
                VerificationError.Failure(type: type, typeName: TypeNames.qualified(type), error: $0)
            }
        }
    }

    /// Verifies like ``verify(_:)`` and throws a ``VerificationError`` listing every type that
    /// cannot be resolved: the Module Factory guide's critical-services check in one line.
    public func verifyOrThrow(_ types: [Any.Type]) throws(VerificationError) {
        let failures = verify(types)
        if !failures.isEmpty { throw VerificationError(failures: failures) }
    }
}
