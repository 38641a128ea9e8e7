import SharedModels

/// The feature's implementation: internal, so no other module can name it. Other features reach
/// it through ``UserDirectory``, the app through ``UserService``.
struct UserServiceImpl: UserService, UserDirectory {
    let users: any UserRepository
    let events: any EventBus

    func signUp(name: String, email: String) throws -> (user: User, isNew: Bool) {
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
            throw UserFeatureError.invalidEmail(email)
        }
        if let existing = try users.user(email: email) { return (existing, false) }
        let user: User
        do {
            user = try users.insert(name: name, email: email)
        } catch StorageError.emailTaken {
            // Another caller registered the same email in between: theirs is the user.
            guard let existing = try users.user(email: email) else { throw StorageError.emailTaken(email) }
            return (existing, false)
        }
        try events.publish(UserRegistered(userID: user.id, email: user.email))
        return (user, true)
    }

    func user(id: Int64) throws -> User? {
        try users.user(id: id)
    }
}
