import SharedModels

/// What the user feature offers the app.
public protocol UserService: Sendable {
    /// Returns the user with `email`, registering them first (and announcing ``UserRegistered``)
    /// if there is none. `isNew` says which happened.
    func signUp(name: String, email: String) throws -> (user: User, isNew: Bool)

    /// The user with `id`, if any.
    func user(id: Int64) throws -> User?
}

/// Why the user feature refused.
public enum UserFeatureError: Error, Equatable, CustomStringConvertible {
    case invalidEmail(String)

    public var description: String {
        switch self {
        case .invalidEmail(let email): return "'\(email)' is not an email address."
        }
    }
}
