#if Hummingbird
    import Atomics

    /// A flag claimed at most once, from any thread.
    final class OnceFlag: Sendable {
        private let claimed = ManagedAtomic<Bool>(false)

        /// Returns `true` to exactly one caller, the first.
        func claim() -> Bool {
            claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        }
    }
#endif
