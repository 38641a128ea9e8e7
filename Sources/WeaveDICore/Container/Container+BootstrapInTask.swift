extension Container {
    /// Bootstraps the shared container from synchronous code (an app delegate's
    /// `application(_:didFinishLaunchingWithOptions:)`): starts a task that runs `configure` on
    /// the container that is `shared` at the call, and returns at once.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didFinishLaunchingWithOptions …) -> Bool {
    ///     WeaveDI.Container.bootstrapInTask { container in
    ///         await AppModules().register(into: container)
    ///     }
    ///     return true
    /// }
    ///
    /// // Later, before the first resolution that needs those registrations:
    /// try await WeaveDI.Container.waitForBootstrap()
    /// ```
    ///
    /// The registrations exist once the task has finished, not when this call returns: a
    /// resolution made before then may not see them. Wait for it with ``waitForBootstrap()`` (every
    /// pending `bootstrapInTask` of the shared container) or with the returned task's `value`
    /// (this one). A failure of `configure` is thrown by both.
    @discardableResult
    public static func bootstrapInTask(
        priority: TaskPriority? = nil,
        _ configure: @escaping @Sendable (Container) async throws -> Void
    ) -> Task<Void, any Error> {
        let container = shared
        let id = ObjectIdentifier(container)
        return pendingBootstraps.withLock { pending in
            let task = Task(priority: priority) { try await configure(container) }
            pending.append((id, task))
            return task
        }
    }

    /// Waits until every ``bootstrapInTask(priority:_:)`` started for the shared container (the
    /// one `shared` is now) has finished; a resolution after it sees their registrations. Throws
    /// the first of their failures, each one once.
    public static func waitForBootstrap() async throws {
        let id = ObjectIdentifier(shared)
        while true {
            // Taken out of the list before awaiting, so a failure is thrown to one waiter only and
            // a bootstrap started while waiting is waited for too.
            let tasks: [Task<Void, any Error>] = pendingBootstraps.withLock { pending in
                let mine = pending.filter { $0.container == id }.map(\.task)
                pending.removeAll { $0.container == id }
                return mine
            }
            if tasks.isEmpty { return }
            var firstError: (any Error)?
            for task in tasks {
                do { try await task.value } catch { firstError = firstError ?? error }
            }
            if let firstError { throw firstError }
        }
    }

    /// Bootstraps started by `bootstrapInTask` and not yet waited for, by container.
    static let pendingBootstraps = Locked<[(container: ObjectIdentifier, task: Task<Void, any Error>)]>([])
}
