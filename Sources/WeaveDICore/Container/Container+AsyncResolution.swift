import Atomics

extension Container {
    // MARK: Public API

    /// Resolves `type` with `await`: registrations with an async factory
    /// (``registerAsync(_:scope:file:line:factory:)-(_,_,_,_,()->T)``) and synchronous ones alike.
    ///
    /// A shared instance another task is building is awaited: this task suspends, no thread
    /// blocks. If this task is cancelled while it waits, it stops waiting and throws
    /// `CancellationError`; the build goes on for the others. If it is the task building, its
    /// factory sees the cancellation; should the factory throw, nothing is stored and the tasks
    /// still waiting try again (one of them builds).
    ///
    /// A synchronous registration's factory runs on the caller's actor (`isolation`), as
    /// `resolve(_:)` would run it there: a factory that needs the main actor works from
    /// `@MainActor` code either way. An async factory runs where it is isolated.
    ///
    /// - Throws: a ``DIError`` saying why the type could not be resolved (a missing registration,
    ///   a cycle with its whole path — within this task or across tasks —, a factory's error), or
    ///   `CancellationError`.
    @inlinable @inline(__always)
    public func resolveAsync<T>(_ type: T.Type, isolation: isolated (any Actor)? = #isolation) async throws -> T {
        if let built = builtAsyncSingleton(id: RegistryKey(type).id, as: T.self) { return built }
        return try await resolveAsyncEntry(key: RegistryKey(type), type: T.self)
    }

    /// ``resolveAsync(_:isolation:)`` past its fast path: resolves, and reports a failure.
    @usableFromInline
    func resolveAsyncEntry<T>(
        key: RegistryKey, type _: T.Type, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        do { return try await resolveAsyncCore(key: key, requester: nil) } catch let error as DIError {
            throw reportAsync(error)
        } catch let reported as ReportedAsyncFailure {
            throw propagateReported(reported.error)
        }
    }

    /// Resolves the registration of `type` made under `name`, with `await` (a synchronous factory
    /// runs on the caller's actor).
    public func resolveAsync<T>(
        _ name: String, _ type: T.Type, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        do {
            return try await resolveAsyncCore(key: RegistryKey(type, name: name), requester: nil)
        } catch let error as DIError {
            throw reportAsync(error)
        } catch let reported as ReportedAsyncFailure {
            throw propagateReported(reported.error)
        }
    }
}
