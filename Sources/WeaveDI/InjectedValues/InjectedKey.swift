import WeaveDICore

/// A key into ``InjectedValues``: a dependency with a value for the app, for tests and for
/// previews.
///
/// ```swift
/// public struct APIClientKey: InjectedKey {
///     public static var liveValue: APIClient = URLSessionAPIClient(session: .shared)
///     public static var testValue: APIClient = MockAPIClient()
/// }
///
/// extension InjectedValues {
///     public var apiClient: APIClient {
///         get { self[APIClientKey.self] }
///         set { self[APIClientKey.self] = newValue }
///     }
/// }
/// ```
///
/// Only ``liveValue`` is required; ``testValue`` and ``previewValue`` default to it. `Value` need
/// not be `Sendable`. The requirements are get-only, so they may be written as `static var`
/// stored properties (Swift 5 language mode, as above), as `static let` (Swift 6, with a
/// `Sendable` value) or as computed properties (any value, any mode).
///
/// WeaveDI reads the value for the process's context once per key and keeps it (``testValue``
/// under a test runner, ``previewValue`` in an Xcode preview, ``liveValue`` otherwise), unless
/// ``withInjectedValues(_:operation:)`` overrides it. A value whose computation resolved a
/// registration of a custom scope (`UnifiedDI.resolve(UnitOfWork.self)` for a request-scoped
/// unit of work) is not kept: it is read again on every access, so each request sees its own.
public protocol InjectedKey {
    /// The dependency's type.
    associatedtype Value

    /// The value apps use.
    static var liveValue: Value { get }

    /// The value used when the process runs tests (XCTest or Swift Testing). Defaults to ``liveValue``.
    static var testValue: Value { get }

    /// The value used in Xcode previews. Defaults to ``liveValue``.
    static var previewValue: Value { get }
}

extension InjectedKey {
    /// Tests use ``liveValue`` unless the key provides its own test value.
    public static var testValue: Value { liveValue }

    /// Previews use ``liveValue`` unless the key provides its own preview value.
    public static var previewValue: Value { liveValue }
}
