extension DIError {
    /// The registrations a ``DIError/dependencyNotFound(_:name:similar:)`` resembles: first the
    /// other registrations of the type itself (`Type` or `Type["name"]`), then registered types
    /// whose names look alike, fully qualified.
    ///
    /// A miss reported to a hook or the log carries them unread: they are computed (from the
    /// registrations current then) the first time they are read, for instance when the error's
    /// message is formatted, so a hook that only counts misses does not pay for a scan of every
    /// registration. Reading them is thread-safe, and computes them once.
    ///
    /// It is a collection of `String` and is written like an array: `similar: ["App.Logger"]`.
    public struct LookAlikes: RandomAccessCollection, ExpressibleByArrayLiteral, Hashable, Sendable,
        CustomStringConvertible
    {
        private enum Source: Sendable {
            case names([String])
            case deferred(Deferred)
        }

        /// Look-alikes computed at most once, on the first read.
        private final class Deferred: Sendable {
            private let state: Locked<(compute: (@Sendable () -> [String])?, names: [String])>

            init(_ compute: @escaping @Sendable () -> [String]) { state = Locked((compute, [])) }

            var isPending: Bool { state.withLock { $0.compute != nil } }

            var names: [String] {
                let (pending, known) = state.withLock { ($0.compute, $0.names) }
                guard let pending else { return known }
                // Computed outside the lock: the scan takes the registry's slot locks. Two first
                // readers may both compute; both get the same names.
                let computed = pending()
                return state.withLock { state in
                    if state.compute != nil { state = (nil, computed) }
                    return state.names
                }
            }
        }

        private let source: Source

        /// The given names.
        public init(_ names: [String]) { source = .names(names) }

        /// The given names.
        public init(arrayLiteral names: String...) { source = .names(names) }

        /// Names `compute` gives when first read.
        package init(computing compute: @escaping @Sendable () -> [String]) {
            source = .deferred(Deferred(compute))
        }

        /// Whether the names are still to be computed (nothing has read them yet).
        package var isDeferred: Bool {
            if case .deferred = source { return true }
            return false
        }

        /// Whether the names are deferred and nothing has read them yet.
        package var isPending: Bool {
            if case .deferred(let deferred) = source { return deferred.isPending }
            return false
        }

        /// The names, in the order described above.
        public var names: [String] {
            switch source {
            case .names(let names): return names
            case .deferred(let deferred): return deferred.names
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
