/// Where a client keeps its session (token, expiry and user) between requests, and for tools
/// between runs.
///
/// The SDK ships ``InMemorySessionStore`` (the default: signed out when the process ends) and
/// ``FileSessionStore`` (a 0600 JSON file, for command-line tools). Apps that want the Keychain
/// implement this protocol over it; the SDK leaves that to them, since the right access group
/// and accessibility class are the app's decision.
///
/// ``CredentialStore`` is the only caller: it serialises access, so an implementation need not.
///
/// A Keychain store in an app might look like this (the `Keychain` helper is the app's):
///
/// ```swift
/// struct KeychainSessionStore: SessionStore {
///     let account: String
///     func load() async -> Session? {
///         try? Keychain.read(account).map { try IntranetJSON.decoder().decode(Session.self, from: $0) }
///     }
///     func save(_ session: Session) async throws {
///         try Keychain.write(IntranetJSON.encoder().encode(session), account: account)
///     }
///     func clear() async throws { try Keychain.delete(account) }
/// }
/// ```
public protocol SessionStore: Sendable {
    /// The stored session, or `nil` when there is none.
    ///
    /// A store that cannot read its session (missing, corrupt, unreadable) reports `nil`:
    /// signed out, never a crash.
    func load() async -> Session?

    /// Replaces the stored session.
    ///
    /// - Parameter session: the session to keep.
    /// - Throws: when the session could not be kept; the old one then stays.
    func save(_ session: Session) async throws

    /// Removes the stored session; removing nothing succeeds.
    ///
    /// - Throws: when a stored session could not be removed.
    func clear() async throws
}
