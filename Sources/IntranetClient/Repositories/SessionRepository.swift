import Foundation
import RESTRepository

/// Signing in and out: `POST /login` and `POST /logout`, custom endpoints built from the
/// shared request pieces. A successful login's token is kept in ``credentials`` and sent with
/// every later request of the same ``IntranetClient``.
public struct SessionRepository: Repository {
    /// The client sending the requests.
    public let client: RESTClient
    /// The root path; the routes are `/login` and `/logout`.
    public let path = ""
    /// Where the token is kept.
    public let credentials: CredentialStore

    /// Creates the repository.
    public init(client: RESTClient, credentials: CredentialStore) {
        self.client = client
        self.credentials = credentials
    }

    private struct LoginBody: Encodable {
        var username: String
        var password: String
    }

    /// Signs in and keeps the session.
    ///
    /// - Parameters:
    ///   - username: the user name (case does not matter).
    ///   - password: the password; it is sent in the body only, never logged.
    /// - Returns: the session with the token and the user.
    /// - Throws: ``RepositoryError/unauthorized(_:)`` for a wrong name or password,
    ///   ``RepositoryError/rateLimited(_:retryAfter:)`` after too many failed attempts.
    @discardableResult
    public func login(username: String, password: String) async throws -> Session {
        let request = try client.request(
            .post, path: path + "/login", json: LoginBody(username: username, password: password))
        let session = try await client.value(request, as: Session.self)
        await credentials.set(session)
        return session
    }

    /// Signs out: the server revokes the token at once; the local session is dropped even
    /// when the server call fails.
    ///
    /// - Throws: a ``RepositoryError`` from the server call.
    public func logout() async throws {
        do {
            try await client.perform(RESTRequest(.post, path: path + "/logout"))
        } catch {
            await credentials.set(nil)
            throw error
        }
        await credentials.set(nil)
    }
}
