import WeaveDICore

extension DependencyGraph {
    /// One registration (or one type something depends on that is not registered).
    public struct Node: Sendable, Hashable, Codable, Identifiable {
        /// The node's identifier in this graph and its exports (`n0`, `n1`, …, in the order of
        /// ``typeName`` then ``name``).
        public let id: String
        /// The fully qualified type, as `String(reflecting:)` spells it (`MyApp.UserService`).
        public let typeName: String
        /// The name the type is registered under, if any.
        public let name: String?
        /// A short readable label: the type without its module, plus the name (`Cache["images"]`);
        /// the qualified type when two nodes would read the same.
        public let label: String
        /// The lifetime (`transient`, `singleton`, `weak`, `scope(request)`), or `nil` when the
        /// type is not registered.
        public let scope: String?
        /// Where it was registered, if it is.
        public let site: RegistrationSite?

        /// A node; `scope` `nil` marks a type that is not registered.
        public init(id: String, typeName: String, name: String?, label: String, scope: String?, site: RegistrationSite?)
        {
            self.id = id
            self.typeName = typeName
            self.name = name
            self.label = label
            self.scope = scope
            self.site = site
        }

        /// Whether the type (and name) is registered.
        public var isRegistered: Bool { scope != nil }

        /// The label with its scope, or "missing": `Cache["images"] (singleton)`.
        public var caption: String { "\(label) (\(scope ?? "missing"))" }
    }
}
