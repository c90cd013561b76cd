import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository

/// Signing in and out and asking who is signed in: `POST /login`, `POST /logout` and
/// `GET /users/me`, custom endpoints built from the shared request pieces.
///
/// A successful login's session is kept in the client's ``SessionStore`` and its token sent
/// with every later request of the same ``IntranetClient``. A 401 answer to any request that
/// carried the token signs out. Read the sign-in state with ``state``, observe it with
/// ``states()``, ask the server who is signed in with ``me()``.
public struct SessionRepository: Repository {
    /// The client sending the requests.
    public let client: RESTClient
    /// The root path; the routes are `/login`, `/logout` and `/users/me`.
    public let path = ""
    /// Where the session is kept.
    let credentials: CredentialStore

    /// Creates the repository.
    ///
    /// - Parameters:
    ///   - client: the client to send through.
    ///   - credentials: where the session is kept and read for each request.
    public init(client: RESTClient, credentials: CredentialStore) {
        self.client = client
        self.credentials = credentials
    }

    /// Signs in and keeps the session: `POST /login` with `{username, password}`.
    ///
    /// - Parameters:
    ///   - username: the user name (case does not matter).
    ///   - password: the password; it is sent in the body only, never logged.
    /// - Returns: the session with the token and the user.
    /// - Throws: `RepositoryError.unauthorized` for a wrong name or password,
    ///   `RepositoryError.rateLimited` after too many failed attempts,
    ///   `RepositoryError.localStore` when the session could not be kept: the client then
    ///   stays as it was, and the new token is revoked on the server (best effort) so no session
    ///   is left behind that nobody can sign out.
    @discardableResult
    public func login(username: String, password: String) async throws -> Session {
        let request = try client.request(
            .post, path: path + "/login", body: LoginRequest(username: username, password: password))
        let session = Session(try await client.value(request, as: LoginResponse.self))
        do {
            try await credentials.set(session)
        } catch {
            let revoke = RESTRequest(.post, path: path + "/logout").setting(.authorization, to: "Bearer \(session.token)")
            try? await client.perform(revoke)
            throw RepositoryError.localStore(error)
        }
        return session
    }

    /// Signs out: `POST /logout` with the token, so the server revokes it at once. The session
    /// is dropped here whatever the server answers, or when it cannot be reached; the outcome
    /// says what the server knows and whether the stored copy could be deleted. Never throws:
    /// signing out always happens on this device.
    ///
    /// - Returns: what happened; ``LogoutOutcome/Server/notRevoked(_:)`` when the server could
    ///   not be told, so the token stays valid there until it expires.
    @discardableResult
    public func logout() async -> LogoutOutcome {
        guard let stored = await credentials.storedToken() else { return LogoutOutcome(server: .notSignedIn) }
        let server: LogoutOutcome.Server
        if stored.isExpired {
            server = .alreadyInvalid
        } else {
            let request = RESTRequest(.post, path: path + "/logout").setting(.authorization, to: "Bearer \(stored.token)")
            do {
                try await client.perform(request)
                server = .revoked
            } catch RepositoryError.unauthorized {
                server = .alreadyInvalid
            } catch {
                server = .notRevoked(error as? RepositoryError ?? .transport(error))
            }
        }
        // The signed-out user's stored answers go with the session (the next user of the
        // device must not read them offline).
        if let caching = client.caching {
            caching.store.forget(partition: StorePartition.of(await credentials.session))
        }
        do {
            // Only this token: a login that finished meanwhile on another task stays.
            try await credentials.signOut(ifToken: stored.token)
            return LogoutOutcome(server: server)
        } catch {
            return LogoutOutcome(server: server, storeFailure: .localStore(error))
        }
    }

    /// The signed-in user as the server knows them now: `GET /users/me`. A changed name or
    /// role is kept in the stored session.
    ///
    /// - Throws: `RepositoryError.unauthorized` when signed out or the token no longer
    ///   works (the stored session is then dropped).
    public func me() async throws -> User {
        let user = try await client.value(RESTRequest(.get, path: path + "/users/me"), as: User.self)
        try? await credentials.update(user)
        return user
    }

    /// The sign-in state now (an expired session is signed out); no request is sent.
    public var state: SessionState {
        get async { await credentials.state }
    }

    /// The sign-in state as a stream: the current state at once, then every change (login,
    /// logout, a 401 that ended the session). Each call is a new, independent subscriber.
    public func states() async -> AsyncStream<SessionState> {
        await credentials.states()
    }
}
