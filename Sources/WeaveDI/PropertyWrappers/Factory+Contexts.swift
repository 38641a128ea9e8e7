import WeaveDICore

// Factory 3's context modifiers on `Factory` keys: `Container.apiClient.onTest { MockAPIClient() }`.
// Each is a context registration (`Container.register(_:scope:in:…)`) under the key, so it
// replaces the key's registration and its default only while its context is active.

extension Factory {
    /// Registers `factory` for this key while `context` is active (see ``RegistrationContext``):
    /// while it is, resolutions of the key in `container` (`Container.shared` by default) and its
    /// children use it instead of the registered factory and the default. Returns the key, so
    /// modifiers chain: `Container.apiClient.onTest { … }.onPreview { … }`.
    ///
    /// - Parameters:
    ///   - context: when it applies.
    ///   - scope: the lifetime of its instances, its own; the key's declared scope by default.
    ///   - container: where it is registered (`Container.shared` by default).
    ///   - file: where the registration is made, for messages (filled in by the compiler).
    ///   - line: the line of the registration, for messages (filled in by the compiler).
    ///   - factory: builds the instance.
    @discardableResult
    public func onContext(
        _ context: RegistrationContext,
        scope: Scope? = nil,
        in container: Container = .shared,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () -> T
    ) -> Self {
        let site = RegistrationSite(fileID: file, line: line)
        let scope = scope ?? definition.scope
        if let optional = definition.optional {
            _ = optional.register(container, definition.overrideKey, scope, context, site, factory)
        } else {
            _ = container.store(
                key: definition.overrideKey, scope: scope, context: context, site: site, factory: factory)
        }
        return self
    }

    /// Registers `factory` for this key while the process runs tests (``RegistrationContext/test``).
    @discardableResult
    public func onTest(
        scope: Scope? = nil, in container: Container = .shared, file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable () -> T
    ) -> Self {
        onContext(.test, scope: scope, in: container, file: file, line: line, factory: factory)
    }

    /// Registers `factory` for this key in Xcode previews (``RegistrationContext/preview``).
    @discardableResult
    public func onPreview(
        scope: Scope? = nil, in container: Container = .shared, file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable () -> T
    ) -> Self {
        onContext(.preview, scope: scope, in: container, file: file, line: line, factory: factory)
    }

    /// Registers `factory` for this key in debug builds (``RegistrationContext/debug``).
    @discardableResult
    public func onDebug(
        scope: Scope? = nil, in container: Container = .shared, file: String = #fileID, line: Int = #line,
        factory: @escaping @Sendable () -> T
    ) -> Self {
        onContext(.debug, scope: scope, in: container, file: file, line: line, factory: factory)
    }

    /// Registers `factory` for this key when the process was launched with `argument`
    /// (``RegistrationContext/argument(_:)``).
    @discardableResult
    public func onArg(
        _ argument: String, scope: Scope? = nil, in container: Container = .shared, file: String = #fileID,
        line: Int = #line, factory: @escaping @Sendable () -> T
    ) -> Self {
        onContext(.argument(argument), scope: scope, in: container, file: file, line: line, factory: factory)
    }

    /// Drops this key's registration for `context` in `container` (`Container.shared` by default),
    /// leaving its other registrations. Returns whether there was one.
    @discardableResult
    public func reset(_ context: RegistrationContext, in container: Container = .shared) -> Bool {
        container.remove(key: definition.overrideKey, context: context, onlyIf: nil)
    }
}
