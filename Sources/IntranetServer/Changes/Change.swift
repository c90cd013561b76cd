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
        /// Changed, and readers see it from now on for the first time (a draft or a scheduled
        /// post went live): new to them, not changed.
        case published
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
    /// Who could read each announcement before the write, for the writes that may have taken
    /// readers away (its readers, audience, status or window changed, or it was deleted): live
    /// streams tell those who lost it that it is gone (``ChangeLog``).
    var formerReaders: [Int: FormerReaders] = [:]

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

/// Who could read an announcement at some moment, as far as live streams need to know to tell
/// a reader who lost it that it is gone: editors and admins always could.
struct FormerReaders: Sendable, Equatable, Codable {
    /// Everyone who may read announcements could (it was unrestricted and live).
    var everyone: Bool
    /// The accounts named as its readers could (it was live).
    var users: [Int]
    /// It was live and addressed to an audience (departments or teams).
    var audience: Bool

    /// Who could read `announcement` at `now`.
    init(_ announcement: StoredAnnouncement, at now: Date) {
        let live = announcement.isLive(at: now)
        everyone = live && !announcement.isRestricted
        users = live ? announcement.readers ?? [] : []
        audience = live && announcement.audience != nil
    }

    init(everyone: Bool = false, users: [Int] = [], audience: Bool = false) {
        self.everyone = everyone
        self.users = users
        self.audience = audience
    }
}
