extension Container {
    /// Configures the shared container. The closure may be async and may throw (the call then
    /// rethrows). Bootstrapping is additive: a later bootstrap adds to (and may replace entries of)
    /// an earlier one, so an app can bootstrap a core layer and then each feature layer.
    public static func bootstrap(
        isolation: isolated (any Actor)? = #isolation,
        _ configure: (Container) async throws -> Void
    ) async rethrows {
        try await configure(shared)
    }

    /// Empties the shared container: every registration and cached instance is released.
    public static func reset() async {
        shared.reset()
    }

    /// Empties this container: every registration, cached instance, scope instance, recorded
    /// graph edge and statistic is released. Parents are untouched. An `AutoRegistering` setup
    /// runs again before the next resolution.
    public func reset() {
        var released: [RegistrationRecord] = []
        registry.forEachSlot { slot in
            slot.lock.withLock {
                released.append(contentsOf: slot.removeAll())
            }
        }
        scopes.endAll()
        graph.removeAll()
        statisticsStore.removeAll()
        if root == nil { restartAutoRegistration() }
        // Records, and the instances they cached, are released here, outside every lock.
        released.removeAll()
    }
}
