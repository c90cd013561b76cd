import Foundation
import HTTPTypes
import IntranetAPI

/// Signs users in and out and tells who a bearer token belongs to (docs/api.md, "Accounts and sessions").
struct AuthService: Sendable {
    /// Failed logins allowed for one username within ``lockoutWindow``.
    static let maxFailures = 5
    /// How long failed logins count.
    static let lockoutWindow: TimeInterval = 15 * 60
    /// The one message for an unknown username and a wrong password.
    static let wrongCredentials = "Wrong username or password."

    let accounts: any AccountRepository
    let hasher: PasswordHasher
    /// How long a session lasts.
    let sessionLifetime: TimeInterval
    var now: @Sendable () -> Date = { Date() }
    /// Counts failed logins, when metrics are on.
    var metrics: ServerMetrics? = nil

    /// Checks the credentials and opens a session.
    ///
    /// - Throws: ``APIError`` 401 for a wrong username or password (the same for both), 429
    ///   with `Retry-After` after too many failures for this username.
    func login(username: String, password: String) async throws -> LoginResponse {
        let key = username.lowercased()
        let now = self.now()
        let windowStart = now.addingTimeInterval(-Self.lockoutWindow)
        let failures = try await accounts.failures(usernameKey: key, since: windowStart)
        if failures.count >= Self.maxFailures, let oldest = failures.first {
            let wait = Int((oldest.timeIntervalSince(windowStart)).rounded(.up))
            throw APIError(
                status: .tooManyRequests,
                detail: "Too many failed logins for this username. Try again in \(max(wait, 1)) seconds.",
                headers: [.retryAfter: String(max(wait, 1))]
            )
        }
        let user = try await accounts.user(username: username)
        var matches = false
        if let user {
            matches = try await hasher.verify(password, against: user.passwordHash)
        } else {
            try await hasher.waste(password)
        }
        guard let user, matches else {
            try await accounts.recordFailure(usernameKey: key, at: now)
            metrics?.failedLogin()
            throw Self.unauthorized(Self.wrongCredentials)
        }
        try await accounts.clearFailures(usernameKey: key, olderThan: windowStart)
        let token = SessionToken.make()
        let expiresAt = FluentAnnouncementRepository.millisecondPrecision(now.addingTimeInterval(sessionLifetime))
        try await accounts.createSession(userID: user.id, tokenHash: SessionToken.hash(token), expiresAt: expiresAt)
        return LoginResponse(token: token, expiresAt: expiresAt, user: user.api)
    }

    /// The user a bearer token belongs to.
    ///
    /// - Throws: ``APIError`` 401 for an unknown, revoked or expired token.
    func user(forToken token: String) async throws -> StoredUser {
        guard let user = try await accounts.session(tokenHash: SessionToken.hash(token), now: now())?.user else {
            throw Self.unauthorized("The token is unknown, expired or revoked. Sign in again.", invalidToken: true)
        }
        return user
    }

    /// Ends the session of `token` at once.
    func logout(token: String) async throws {
        try await accounts.deleteSession(tokenHash: SessionToken.hash(token))
    }

    /// A 401 that tells the client to authenticate with a bearer token.
    static func unauthorized(_ detail: String, invalidToken: Bool = false) -> APIError {
        let challenge = invalidToken ? #"Bearer realm="intranet", error="invalid_token""# : #"Bearer realm="intranet""#
        return APIError(status: .unauthorized, detail: detail, headers: [.wwwAuthenticate: challenge])
    }
}
