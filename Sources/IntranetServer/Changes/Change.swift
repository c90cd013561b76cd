import Foundation

/// What one committed write changed, as the ``ChangePipeline`` hands it to everything that
/// remembers data (caches, remembered sessions, the people search) and publishes it to
/// subscribers (later: live streams).
struct Change: Sendable, Equatable {
    /// One thing a write touched, when the write knows it.
    enum Subject: Sendable, Equatable {
        case announcement(id: Int, Action)
        case person(id: Int, Action)
        /// An account, or its sessions: what this instance remembers of it must be read again.
        case account(id: Int, Action)
        /// A reader's acknowledgement of an announcement (the announcement itself is unchanged).
        case acknowledgement(announcementID: Int, userID: Int)
    }

    /// What happened to a subject.
    enum Action: String, Sendable, Equatable {
        case created, changed, deleted
    }

    /// Where a change was made.
    enum Origin: Sendable, Equatable {
        /// Through this instance: its subjects are known.
        case local
        /// Through another instance or a tool on the shared database, announced by the
        /// PostgreSQL change feed or found by comparing revisions: only its domains are known.
        case remote
        /// By no write: an instant came at which what readers see changes (a scheduled post's
        /// publication, an expiry, the end of a pin), noticed by each instance on its own clock.
        case schedule
    }

    /// The domains whose data changed.
    var domains: ChangeDomains
    /// What changed in them, as far as known (empty for writes of many rows at once such as an
    /// import, and for remote changes but those of one account, which the change feed names).
    var subjects: [Subject] = []
    var origin: Origin = .local
    /// The change's place among this instance's changes, from 1 (set by the pipeline).
    var sequence: UInt64 = 0

    /// The accounts whose remembered sessions must go: `nil` for every account (a change to
    /// accounts that names none, as a new user or a change found by comparing revisions), empty
    /// when no account changed.
    var accounts: Set<Int>? {
        guard domains.contains(.accounts) else { return [] }
        var ids = Set<Int>()
        for subject in subjects {
            guard case .account(let id, _) = subject else { continue }
            ids.insert(id)
        }
        return ids.isEmpty ? nil : ids
    }
}

/// Something that remembers data and must let go of what a change made stale. Called
/// synchronously, after the write committed and before its response is sent, so a client never
/// reads its own write stale.
protocol ChangeListener: AnyObject, Sendable {
    func apply(_ change: Change)
}
