extension DIError {
    /// The registrations a ``DIError/dependencyNotFound(_:name:similar:)`` resembles: first the
    /// other registrations of the type itself (`Type` or `Type["name"]`), then registered types
    /// whose names look alike, fully qualified.
    ///
    /// A miss reported to a hook or the log carries them unread: they are looked up (in the
    /// registrations current then) when they are read, for instance when the error's message is
    /// formatted, so a hook that only counts misses does not pay for a scan of every
    /// registration, and a miss allocates nothing for them. Reading them is thread-safe; until the
    /// error is released it keeps the container it looks in alive.
    ///
    /// It is a collection of `String` and is written like an array: `similar: ["App.Logger"]`.
    public struct LookAlikes: RandomAccessCollection, ExpressibleByArrayLiteral, Hashable, Sendable,
        CustomStringConvertible
    {
        private enum Source: @unchecked Sendable {
            case names([String])
            /// Looked up in `container`'s registrations (and its parents') on every read.
            /// (`@unchecked`: a metatype and a container are both safe to share.)
            case lookup(Container, Any.Type, String?)
        }

        private let source: Source

        /// The given names.
        public init(_ names: [String]) { source = .names(names) }

        /// The given names.
        public init(arrayLiteral names: String...) { source = .names(names) }

        /// The registrations of `container` and its parents that a miss of `type` under `name`
        /// resembles, looked up when read.
        init(lookingUp type: Any.Type, name: String?, in container: Container) {
            source = .lookup(container, type, name)
        }

        /// Whether the names are looked up when read (nothing is computed until then).
        package var isDeferred: Bool {
            if case .lookup = source { return true }
            return false
        }

        /// The names, in the order described above.
        public var names: [String] {
            switch source {
            case .names(let names): return names
            case .lookup(let container, let type, let name): return container.similarRegistrations(to: type, name: name)
            }
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { names.count }
        public subscript(position: Int) -> String { names[position] }

        public static func == (lhs: LookAlikes, rhs: LookAlikes) -> Bool { lhs.names == rhs.names }
        public func hash(into hasher: inout Hasher) { hasher.combine(names) }

        /// The names as an array literal spells them.
        public var description: String { names.description }
    }
}
