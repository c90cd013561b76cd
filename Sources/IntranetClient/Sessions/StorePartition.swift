import Crypto
import Foundation

/// Whose answers a response store files an answer under: one partition per signed-in user,
/// one for everyone signed out.
enum StorePartition {
    /// Answers read signed out.
    static let anonymous = "anonymous"

    /// The partition of a session's user; ``anonymous`` for none.
    static func of(_ session: Session?) -> String {
        session.map { "user:\($0.user.id)" } ?? anonymous
    }

    /// The partition of a token from an app's own token provider: a digest of the token, as
    /// the SDK does not know whose it is (never the token itself, which is a secret).
    static func of(token: String?) -> String {
        guard let token else { return anonymous }
        let digest = SHA256.hash(data: Data(token.utf8))
        return "token:" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
