import IntranetAPI

/// A user account as the intranet reports it (`GET /users/me`, `GET /users`, the `user` of a
/// login): the shared wire type `IntranetAPI.User`. Passwords never travel in this type.
///
/// Kept as a name so code written against earlier SDK builds still compiles. Earlier builds
/// had a role type of their own that accepted any role name; the shared `UserRole` is an enum,
/// so an account whose role this build does not know fails to decode (as
/// `RepositoryError.undecodable`) instead of being shown with a role it cannot act on.
public typealias IntranetUser = User

extension User {
    /// What a user may do; the shared `UserRole`.
    public typealias Role = UserRole

    /// Whether the user may create, change and delete announcements (editors and admins).
    public var canEditAnnouncements: Bool {
        role >= .editor
    }

    /// Whether the user may list, create, change and delete accounts (admins).
    public var canManageUsers: Bool {
        role == .admin
    }
}

// The user's id identifies it; declared here because IntranetAPI has no need for it.
extension User: Identifiable {}
