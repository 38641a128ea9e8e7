import WeaveDICore

extension DependencyGraph {
    /// "`from` depends on `to`", with how WeaveDI learned it.
    public struct Edge: Sendable, Hashable, Codable {
        /// The ``Node/id`` of the dependent.
        public let from: String
        /// The ``Node/id`` of the dependency.
        public let to: String
        /// Whether `from`'s factory was seen resolving `to` (or asking for it while it was missing).
        public let isResolved: Bool
        /// Whether `from`'s module declared `to` in its `dependencies:`.
        public let isDeclared: Bool

        /// An edge from the node `from` to the node `to` (``Node/id``s).
        public init(from: String, to: String, isResolved: Bool, isDeclared: Bool) {
            self.from = from
            self.to = to
            self.isResolved = isResolved
            self.isDeclared = isDeclared
        }
    }
}
