/// A ``SessionStore`` in memory: the default, so a session ends with the process.
///
/// An actor, since a client's requests run on many tasks at once. Starting it with a session
/// suits previews and tests:
///
/// ```swift
/// let store = InMemorySessionStore(session: Session(token: "t", expiresAt: .distantFuture, user: user))
/// let intranet = IntranetClient(transport: mock, configuration: .init(sessionStore: store))
/// ```
public actor InMemorySessionStore: SessionStore {
    private var session: Session?

    /// Creates a store, empty (signed out) or holding a session.
    ///
    /// - Parameter session: the initial session (none by default).
    public init(session: Session? = nil) {
        self.session = session
    }

    /// The session kept, or `nil`.
    public func load() -> Session? {
        session
    }

    /// Keeps `session`, replacing any other.
    public func save(_ session: Session) {
        self.session = session
    }

    /// Forgets the session.
    public func clear() {
        session = nil
    }
}
