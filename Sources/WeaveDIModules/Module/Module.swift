import WeaveDICore

/// A registration packaged as a value: made anywhere, registered later with
/// `container.register(module)`. Making or registering a module builds nothing; the instance is
/// built when its type is resolved.
///
/// ```swift
/// let module = Module(UserRepository.self) { UserRepositoryImpl() }
/// await WeaveDI.Container.bootstrap { container in
///     await container.register(module)
/// }
/// ```
public struct Module: Sendable, CustomStringConvertible {
    /// The type the module registers.
    public let type: Any.Type
    /// The name it registers under, if any.
    public let name: String?
    /// The lifetime of what it builds.
    public let scope: Scope
    /// Types its factory needs, as declared by the maker (validation checks they are registered).
    public let dependencies: [Any.Type]
    /// Where the module was made.
    public let site: RegistrationSite
    private let registrar: @Sendable (Container, Module) -> Void

    /// A module registering `factory` for `type`.
    public init<T>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .transient,
        dependencies: [Any.Type] = [],
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) {
        self.type = type
        self.name = name
        self.scope = scope
        self.dependencies = dependencies
        self.site = RegistrationSite(fileID: file, line: line)
        self.registrar = { container, module in
            _ = container.store(
                key: RegistryKey(T.self, name: module.name), scope: module.scope,
                dependencies: module.dependencies, site: module.site, factory: factory)
        }
    }

    /// A module registering an async `factory` for `type` (resolved with
    /// ``Container/resolveAsync(_:isolation:)``; see ``Container/registerAsync(_:scope:file:line:factory:)-(_,_,_,_,()->T)``).
    ///
    /// ```swift
    /// let database = Module(Database.self, scope: .singleton, asyncFactory: { try await Database.open() })
    /// ```
    public init<T>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .transient,
        dependencies: [Any.Type] = [],
        file: String = #fileID,
        line: Int = #line,
        asyncFactory factory: @escaping @Sendable () async throws -> T
    ) {
        self.type = type
        self.name = name
        self.scope = scope
        self.dependencies = dependencies
        self.site = RegistrationSite(fileID: file, line: line)
        self.registrar = { container, module in
            _ = container.storeAsync(
                key: RegistryKey(T.self, name: module.name), scope: module.scope,
                dependencies: module.dependencies, site: module.site, factory: factory)
        }
    }

    /// A module whose factory is handed the container the module was registered into, so what it
    /// looks up comes from that container (not whichever container is `shared` when it runs).
    /// The container is held weakly: a registration never keeps its own container alive.
    init<T>(
        _ type: T.Type,
        name: String?,
        scope: Scope,
        dependencies: [Any.Type],
        site: RegistrationSite,
        containerFactory: @escaping @Sendable (Container) throws -> T
    ) {
        self.type = type
        self.name = name
        self.scope = scope
        self.dependencies = dependencies
        self.site = site
        self.registrar = { container, module in
            let factory: @Sendable () throws -> T = { [weak container] in
                try containerFactory(container ?? Container.shared)
            }
            _ = container.store(
                key: RegistryKey(T.self, name: module.name), scope: module.scope,
                dependencies: module.dependencies, site: module.site, factory: factory)
        }
    }

    /// The registry key the module registers under (type and name), for duplicate detection.
    var key: RegistryKey { RegistryKey(anyType: type, name: name) }

    /// Registers the module's factory in `container`.
    func register(into container: Container) {
        registrar(container, self)
    }

    /// Whether the module can be registered: it has a type and, if named, a non-empty name.
    public var isValid: Bool { invalidityReason == nil }

    /// Why the module cannot be registered, or `nil` when it can.
    var invalidityReason: String? {
        if let name, name.isEmpty {
            return "its name is empty; pass nil for an unnamed registration or a non-empty name"
        }
        return nil
    }

    /// The registered type (and name), e.g. `Module(MyApp.UserRepository)`.
    public var description: String { "Module(\(ResolutionFrame.displayName(type, name)), \(scope))" }
}

extension Container {
    /// Registers what `module` describes.
    @_disfavoredOverload
    public func register(_ module: Module) {
        module.register(into: self)
    }

    /// Registers what `module` describes (the form `await container.register(module)` calls).
    public func register(_ module: Module) async {
        module.register(into: self)
    }
}
