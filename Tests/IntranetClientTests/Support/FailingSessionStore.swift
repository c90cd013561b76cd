import Foundation
import IntranetClient

/// A session store whose disk is broken: it holds a session in memory but cannot save or
/// delete, as a read-only or full volume would.
actor FailingSessionStore: SessionStore {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device" }
    }

    private let session: Session?

    init(session: Session?) {
        self.session = session
    }

    func load() async -> Session? { session }
    func save(_ session: Session) async throws { throw DiskFull() }
    func clear() async throws { throw DiskFull() }
}
