// `let r = UnifiedDI.register(X.self) { XImpl() }` then `r.method()` (a WeaveDI 3.x app shape):
// without this, Swift says only that `RegistrationHandle` has no member `method`.
extension RegistrationHandle {
    /// Not available: a ``RegistrationHandle`` is not the registered instance.
    @available(
        *, unavailable,
        message:
            "UnifiedDI.register returns a RegistrationHandle, not the instance: resolve it with UnifiedDI.resolve(T.self)"
    )
    public subscript(dynamicMember member: String) -> NotAnInstance { unavailableShape() }

    /// What the unavailable member lookup of a ``RegistrationHandle`` gives: callable, so that a
    /// method call on the handle type-checks and Swift reports the handle's message.
    public struct NotAnInstance {
        /// Not available (see ``RegistrationHandle``).
        @available(
            *, unavailable,
            message:
                "UnifiedDI.register returns a RegistrationHandle, not the instance: resolve it with UnifiedDI.resolve(T.self)"
        )
        public func callAsFunction<Result>(_ arguments: Any...) -> Result { unavailableShape() }

        /// Not available (see ``RegistrationHandle``); the form of a call whose result is unused
        /// or not typed, which the generic form cannot infer.
        @available(
            *, unavailable,
            message:
                "UnifiedDI.register returns a RegistrationHandle, not the instance: resolve it with UnifiedDI.resolve(T.self)"
        )
        public func callAsFunction(_ arguments: Any...) { unavailableShape() }
    }
}
