import Foundation
import IntranetAPI
import RESTRepository

/// The accounts, for admins: list, create, change and delete (`/users`).
///
/// Every call needs an admin's session: signed out gives `RepositoryError.unauthorized`,
/// another role `RepositoryError.forbidden`. Accounts carry no entity tags, so changes
/// are unconditional: `patchUnconditionally(_:id:)` and `deleteUnconditionally(id:)` come
/// from the `RESTRepository` protocols, and ``setRole(_:id:)`` is the common case.
public struct UsersRepository: Patchable, Deletable {
    /// User ids are integers.
    public typealias ID = Int
    /// A member: the shared `User`.
    public typealias Entity = User
    /// Changing sends only the fields given.
    public typealias Patch = UserPatch

    /// The client sending the requests.
    public let client: RESTClient
    /// `/users`.
    public let path = "/users"

    /// Creates the repository.
    public init(client: RESTClient) {
        self.client = client
    }

    /// Every account: `GET /users`.
    ///
    /// - Throws: a `RepositoryError`.
    public func list() async throws -> [User] {
        try await client.list(RESTRequest(.get, path: path), as: User.self)
    }

    /// One account: `GET /users/{id}`.
    ///
    /// - Parameter id: the account's id.
    /// - Throws: a `RepositoryError`; `RepositoryError.notFound` for an unknown id.
    public func read(id: Int) async throws -> User {
        try await client.value(RESTRequest(.get, path: path(for: id)), as: User.self)
    }

    /// Creates an account: `POST /users` with the new user as JSON; the server answers 201
    /// with `Location: /users/{id}` and the user.
    ///
    /// - Parameter newUser: name, role, password (sent in the body only) and, if you like, a
    ///   display name (the server uses the name otherwise).
    /// - Returns: the account as the server stored it.
    /// - Throws: `RepositoryError.conflict` when the name is taken,
    ///   `RepositoryError.unprocessable` for invalid fields.
    public func create(_ newUser: NewUser) async throws -> User {
        try await client.value(try client.request(.post, path: path, body: newUser), as: User.self)
    }

    /// Gives an account another role: `PATCH /users/{id}` with `{"role": …}`.
    ///
    /// - Parameters:
    ///   - role: the new role.
    ///   - id: the account's id.
    /// - Returns: the changed account.
    /// - Throws: a `RepositoryError`; `RepositoryError.notFound` for an unknown id.
    public func setRole(_ role: UserRole, id: Int) async throws -> User {
        try await patchUnconditionally(UserPatch(role: role), id: id)
    }
}
