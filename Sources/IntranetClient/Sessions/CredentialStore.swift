import Foundation
import IntranetAPI

/// Holds the current session of an ``IntranetClient`` over a ``SessionStore``, hands the token
/// to every request, and tells observers when the sign-in state changes.
///
/// An actor: logins, logouts, 401 answers and requests happen on many tasks at once. The store
/// is read once, on first use; after that this actor's copy is the truth and every change is
/// written through to the store.
public actor CredentialStore {
    /// Where the session is kept.
    public nonisolated let store: any SessionStore
    private let now: @Sendable () -> Date
    /// The session as last loaded or set; `.none` until the store has been read.
    private var cached: Session??
    /// Each subscriber with the state it was last given, so it hears of changes only.
    private var observers: [UUID: (continuation: AsyncStream<SessionState>.Continuation, last: SessionState)] = [:]

    /// Creates a credential store.
    ///
    /// - Parameters:
    ///   - store: where the session is kept (in memory by default: signed out).
    ///   - now: the clock that decides expiry (the system clock by default).
    public init(store: any SessionStore = InMemorySessionStore(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.now = now
    }

    /// The stored session, expired or not, or `nil` when signed out.
    public var session: Session? {
        get async { await loaded() }
    }

    /// The sign-in state now (an expired session is signed out).
    public var state: SessionState {
        get async { SessionState(await loaded(), at: now()) }
    }

    /// The token to send now: `nil` when signed out or expired.
    public var token: String? {
        get async { await currentToken() }
    }

    /// The token to send now; an expired session is dropped (and observers told) instead.
    public func currentToken() async -> String? {
        guard let session = await loaded() else { return nil }
        guard session.isExpired(at: now()) else { return session.token }
        try? await set(nil)
        return nil
    }

    /// Replaces the session (`nil` signs out), writes it to the store and tells observers.
    ///
    /// Signing out forgets the session here even when the store fails to delete it.
    ///
    /// - Throws: what the store throws; a failed save keeps the previous session.
    public func set(_ session: Session?) async throws {
        guard let session else {
            cached = .some(nil)
            publish()
            try await store.clear()
            return
        }
        try await store.save(session)
        cached = .some(session)
        publish()
    }

    /// Signs out if `token` is still the current token: what a 401 answer to a request that
    /// carried `token` means. A newer session (signed in meanwhile) stays.
    ///
    /// - Parameter token: the token the server refused.
    public func clear(ifToken token: String) async {
        guard await loaded()?.token == token else { return }
        try? await set(nil)
    }

    /// Signs out if `token` is still the current token, reporting the store's failure to
    /// delete it: what a logout does once the server has been told (or could not be). A
    /// session signed in meanwhile stays.
    ///
    /// - Parameter token: the token that was signed out.
    /// - Throws: what the store throws; the session is forgotten here all the same.
    func signOut(ifToken token: String) async throws {
        guard await loaded()?.token == token else { return }
        try await set(nil)
    }

    /// The stored session's token and whether it has expired now, or `nil` when signed out.
    func storedToken() async -> (token: String, isExpired: Bool)? {
        guard let session = await loaded() else { return nil }
        return (session.token, session.isExpired(at: now()))
    }

    /// Keeps a fresher copy of the signed-in user (e.g. after `GET /users/me` showed a new
    /// role); does nothing when `user` is someone else or nobody is signed in.
    ///
    /// - Parameter user: the user as the server showed it.
    /// - Throws: what the store throws.
    public func update(_ user: User) async throws {
        guard var session = await loaded(), session.user.id == user.id, session.user != user else { return }
        session.user = user
        try await set(session)
    }

    /// A stream of sign-in states: the current one at once, then each change (login, logout,
    /// a 401 or expiry that signed out). Each call makes a new subscriber; a subscriber whose
    /// stream ends (its task cancelled, its loop left) is removed.
    public func states() async -> AsyncStream<SessionState> {
        let current = SessionState(await loaded(), at: now())
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self)
        let id = UUID()
        observers[id] = (continuation, current)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(current)
        return stream
    }

    /// How many subscribers are listening to ``states()``, to check none are leaked.
    public var observerCount: Int {
        observers.count
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func loaded() async -> Session? {
        if case .some(let session) = cached { return session }
        let session = await store.load()
        // Another task may have set a session while the store was read; that one is newer.
        if case .some(let newer) = cached { return newer }
        cached = .some(session)
        return session
    }

    private func publish() {
        let state = SessionState(cached ?? nil, at: now())
        for (id, observer) in observers where observer.last != state {
            observers[id]?.last = state
            observer.continuation.yield(state)
        }
    }
}
