/// A storage operation could not be done as asked.
public enum StorageError: Error, Equatable, CustomStringConvertible {
    /// Another user already has this email.
    case emailTaken(String)
    /// No row of `entity` has this id.
    case notFound(entity: String, id: Int64)

    public var description: String {
        switch self {
        case .emailTaken(let email): return "A user with email \(email) already exists."
        case .notFound(let entity, let id): return "No \(entity) with id \(id)."
        }
    }
}
