import Foundation

extension Container {
    // MARK: Public API

    /// Resolves `type`, or returns `nil` when it is not registered here or in a parent, when
    /// resolving it would close a cycle, or when its factory throws. Every failure reaches
    /// `UnifiedDI.onResolutionError`; use ``resolveOrThrow(_:)`` to get it as an error.
    @inlinable
    public func resolve<T>(_ type: T.Type) -> T? {
        do { return try resolveCore(type, name: nil) } catch {
            report(error)
            return nil
        }
    }

    /// Resolves the registration of `type` made under `name`.
    @inlinable
    public func resolve<T>(_ name: String, _ type: T.Type) -> T? {
        do { return try resolveCore(type, name: name) } catch {
            report(error)
            return nil
        }
    }

    /// Resolves a type known only at run time, as in `for type in [Any.Type] { … }`.
    ///
    /// A statically known type never picks this overload: `resolve(UserRepository.self)` is
    /// `UserRepository?`. For a metatype held as `Any.Type`, Swift may instead open it and call the
    /// generic overload; both resolve the same registration and return `Any?`.
    @_disfavoredOverload
    public func resolve(_ type: Any.Type) -> Any? {
        do { return try resolveErased(type, name: nil) } catch {
            report(error)
            return nil
        }
    }

    /// Resolves `type` or throws a ``DIError`` saying why it could not:
    /// ``DIError/dependencyNotFound(_:name:similar:)`` (with registered look-alikes),
    /// ``DIError/circularDependency(path:)`` (with the whole path) or
    /// ``DIError/factoryFailed(_:name:underlying:)`` (with the factory's error).
    ///
    /// The error is always a `DIError`; the signature says plain `throws` because typed-throws
    /// `catch` patterns crash some compilers (Swift 6.3's SIL ownership verifier).
    @inlinable
    public func resolveOrThrow<T>(_ type: T.Type) throws -> T {
        do { return try resolveCore(type, name: nil) } catch { throw report(error, thrown: true) }
    }

    /// Resolves the registration of `type` made under `name`, or throws a ``DIError`` saying why.
    @inlinable
    public func resolveOrThrow<T>(_ name: String, _ type: T.Type) throws -> T {
        do { return try resolveCore(type, name: name) } catch { throw report(error, thrown: true) }
    }

    /// Resolves `type`, or stops the program with a message naming the type, registrations with
    /// similar names, and how to register it. Use it only where a missing registration is a
    /// programming error; ``resolve(_:)-(T.Type)`` and ``resolveOrThrow(_:)`` do not trap.
    public func requireResolve<T>(_ type: T.Type, file: StaticString = #fileID, line: UInt = #line) -> T {
        do { return try resolveCore(type, name: nil) } catch {
            let error = report(error, thrown: true)
            fatalError(
                "WeaveDI.requireResolve(\(TypeNames.qualified(T.self))) failed: \(error.description)", file: file,
                line: line)
        }
    }

    /// Resolves `type` like ``resolve(_:)-(T.Type)`` and times the whole resolution, cached or
    /// built: a successful one counts once in ``statistics()`` (average and slowest duration of
    /// `type`) and reaches `UnifiedDI.onSlowResolution` when it took at least the threshold.
    public func resolveWithTracking<T>(_ type: T.Type) -> T? {
        tracking(RegistryKey(type), type) { resolve(type) }
    }

    private func tracking<T>(_ key: RegistryKey, _ type: T.Type, _ body: () -> T?) -> T? {
        let stack = ResolutionStack.current
        let outer = stack.tracked
        stack.tracked = TrackedResolution(key: key, depth: stack.depth)
        defer { stack.tracked = outer }
        let start = monotonicSeconds()
        guard let value = body() else { return nil } // a failure is counted as a miss or reported
        let elapsed = monotonicSeconds() - start
        statisticsStore.recordDuration(key, type: type, seconds: elapsed)
        if failureSink == nil { ObservationCenter.shared.reportResolutionTime(type, name: key.name, seconds: elapsed) }
        return value
    }

    /// Whether `type` (under `name`) is registered here or in a parent, without resolving it.
    public func isRegistered<T>(_ type: T.Type, name: String? = nil) -> Bool {
        isRegistered(key: RegistryKey(type, name: name))
    }

    package func isRegistered(key: RegistryKey) -> Bool {
        // A key with context registrations counts while one of them (or its plain one) applies.
        if let slot = registry.slot(for: key.id), slot.lock.withLock({ slot.record(named: key.name)?.selected != nil })
        {
            return true
        }
        return parent?.isRegistered(key: key) ?? false
    }
}
