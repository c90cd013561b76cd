import HummingbirdBcrypt
import NIOPosix

/// bcrypt hashing, run on a thread pool so the event loops never wait for it.
struct PasswordHasher: Sendable {
    /// The bcrypt cost: 12 in production; tests lower it to stay fast.
    let cost: UInt8

    init(cost: UInt8 = 12) {
        self.cost = cost
    }

    /// Spends as long as ``verify(_:against:)`` would, for a username that does not exist, so
    /// that timing does not tell which usernames do.
    func waste(_ password: String) async throws {
        _ = try await hash(password)
    }

    /// A salted hash of `password`.
    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`.
    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
