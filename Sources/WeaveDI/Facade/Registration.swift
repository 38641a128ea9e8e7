import WeaveDICore

/// One entry of ``UnifiedDI/registerMany(_:)``.
public struct Registration: Sendable {
    private let apply: @Sendable (Container) -> Void

    /// Registers `factory` for `type`.
    public init<T>(
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) {
        apply = { $0.register(type, scope: scope, file: file, line: line, factory: factory) }
    }

    /// Registers `factory` for `type` under `name`.
    public init<T>(
        _ name: String,
        _ type: T.Type,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T
    ) {
        apply = { $0.register(name, type, scope: scope, file: file, line: line, factory: factory) }
    }

    /// Registers `value` as the instance every resolution of `type` returns. A trailing closure
    /// goes to the factory form, also for `Any`, `Any?` and `any Sendable`.
    @_disfavoredOverload
    public init<T>(_ type: T.Type, default value: T, file: String = #fileID, line: Int = #line) {
        let box = UncheckedBox(value)
        apply = { $0.register(type, instance: box.value, file: file, line: line) }
    }

    /// Registers `factory` when `condition` is true and `fallback` otherwise.
    public init<T>(
        _ type: T.Type,
        condition: Bool,
        scope: Scope = .transient,
        file: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable () throws -> T,
        fallback: @escaping @Sendable () throws -> T
    ) {
        let chosen = condition ? factory : fallback
        apply = { $0.register(type, scope: scope, file: file, line: line, factory: chosen) }
    }

    /// Registers this entry in `container`.
    func register(into container: Container) { apply(container) }
}

extension Registration {
    /// Builds the list of ``Registration`` values for ``UnifiedDI/registerMany(_:)``, with `if`,
    /// `if`/`else` and `for` allowed.
    @resultBuilder
    public enum Builder {
        public static func buildExpression(_ registration: Registration) -> [Registration] { [registration] }
        public static func buildBlock(_ parts: [Registration]...) -> [Registration] { parts.flatMap { $0 } }
        public static func buildOptional(_ part: [Registration]?) -> [Registration] { part ?? [] }
        public static func buildEither(first part: [Registration]) -> [Registration] { part }
        public static func buildEither(second part: [Registration]) -> [Registration] { part }
        public static func buildArray(_ parts: [[Registration]]) -> [Registration] { parts.flatMap { $0 } }
    }
}
