import Foundation
import IntranetAPI

/// An announcement as the server knows it, independent of storage and API version.
struct StoredAnnouncement: Sendable, Equatable {
    var id: Int
    var title: String
    var body: String?
    /// Incremented on every write; the `ETag` is built from it.
    var revision: Int
    var createdAt: Date
    var updatedAt: Date
    /// The users named as its readers; `nil` when it names none.
    var readers: [Int]?
    /// Status, times, pin and importance (the pin as stored: see ``isPinned(at:)``).
    var publishing = AnnouncementV3.Publishing()
    /// When it was last pinned (the order of pinned announcements).
    var pinnedAt: Date?
    /// The departments and teams it is addressed to; `nil` for none.
    var audience: AnnouncementAudience?
    /// The Markdown its body was made from, when written in Markdown.
    var markdown: String?
    /// Whether it asks readers to acknowledge it, by when, and in which round.
    var acknowledgement = AcknowledgementRule()
    /// Its attached files, in order (read for a detail only; empty in lists).
    var attachments: [AttachmentDescription] = []

    /// Whether only some may read it (named readers or an audience); editors and admins always
    /// may.
    var isRestricted: Bool { readers != nil || audience != nil }

    /// Whether readers see it at `now`: published, and between its publication and expiry.
    func isLive(at now: Date) -> Bool {
        publishing.status == .published && (publishing.publishAt.map { $0 <= now } ?? true)
            && (publishing.expiresAt.map { now < $0 } ?? true)
    }

    /// Whether it is pinned at `now` (pinned, and its pin has not ended).
    func isPinned(at now: Date) -> Bool {
        publishing.pinned && (publishing.pinnedUntil.map { now < $0 } ?? true)
    }

    /// The publishing properties as shown at `now`: `pinned` is false once the pin ended.
    func shownPublishing(at now: Date) -> AnnouncementV3.Publishing {
        var shown = publishing
        shown.pinned = isPinned(at: now)
        return shown
    }
}

/// The fields a client may write: the result of a validated `POST`, `PUT` or merged `PATCH`.
struct AnnouncementContent: Sendable, Equatable {
    var title: String
    var body: String?
    /// Who may read it by name; `nil` for nobody named.
    var readers: [Int]?
    /// Status, times, pin and importance.
    var publishing = AnnouncementV3.Publishing()
    /// The departments and teams it is addressed to; `nil` for none.
    var audience: AnnouncementAudience?
    /// The Markdown source of the body, when written in Markdown.
    var markdown: String?
    /// Whether it asks readers to acknowledge it (the round already moved on for a new one).
    var acknowledgement = AcknowledgementRule()
}

/// What an announcement asks of its readers: to acknowledge it (by a due date), in a round that
/// moves on when the editor asks everyone again.
struct AcknowledgementRule: Sendable, Equatable {
    var required = false
    var dueAt: Date?
    /// 0 until it first asks; kept while it asks nothing, so asking again counts what was given.
    var round = 0

    /// How version 3.0 lists show it: `nil` when nothing is asked.
    var requirement: AcknowledgementRequirement? {
        required ? AcknowledgementRequirement(dueAt: dueAt, round: round) : nil
    }

    /// How version 3.0 details show it to a reader who acknowledged the round at
    /// `acknowledgedAt` (`nil`: not, or signed out).
    func shown(acknowledgedAt: Date?) -> AnnouncementAcknowledgement? {
        required ? AnnouncementAcknowledgement(dueAt: dueAt, round: round, acknowledgedAt: acknowledgedAt) : nil
    }
}

/// Which announcements a caller may see. Whatever it is, readers and signed-out callers see
/// only what is live at the moment of reading (``StoredAnnouncement/isLive(at:)``); editors and
/// admins see drafts, scheduled and expired announcements too.
enum Visibility: Sendable, Hashable {
    /// Editors and admins: everything.
    case everything
    /// Signed-out callers: unrestricted announcements only.
    case unrestricted
    /// A reader: unrestricted ones and those naming this user id or addressed to them (the
    /// repository resolves it to ``granted(_:)``).
    case reader(userID: Int)
    /// A view shared by readers: unrestricted ones and these restricted ones (the announcements
    /// naming or addressed to every reader of the view, ``ResponseCache/view(for:)``), so that
    /// what is kept for the view depends on the view alone.
    case granted(Set<Int>)

    /// Whether this visibility shows `announcement` at `now`; `.reader` must have been resolved
    /// to ``granted(_:)`` (it shows only unrestricted ones otherwise).
    func allows(_ announcement: StoredAnnouncement, at now: Date) -> Bool {
        if case .everything = self { return true }
        return reaches(id: announcement.id, isRestricted: announcement.isRestricted) && announcement.isLive(at: now)
    }

    /// Whether this visibility's caller may read announcement `id`, restricted or not, whether
    /// or not it is live (the search in memory asks this of what it holds).
    func reaches(id: Int, isRestricted: Bool) -> Bool {
        switch self {
        case .everything: true
        case .unrestricted, .reader: !isRestricted
        case .granted(let ids): !isRestricted || ids.contains(id)
        }
    }
}

/// A validated list request: which slice, in which order.
struct ListRequest: Sendable, Equatable {
    enum SortKey: String, Sendable, CaseIterable {
        case id, title, createdAt, updatedAt
    }

    var sort: SortKey = .id
    var isDescending = false
    var offset = 0
    var limit = 10
    /// Only announcements whose title or body contains this text, ignoring case (the web
    /// front end's search box); `nil` for all.
    var search: String?
    /// Which announcements: those readers see now, or (editors only) drafts, scheduled or
    /// expired ones.
    var listing: Listing = .live
    /// Whether pinned announcements come first (API 3.0 and the web), in the order they were
    /// pinned, before the requested sort.
    var pinnedFirst = false

    /// Which announcements a list holds (`?status=`).
    enum Listing: String, Sendable, CaseIterable {
        /// What readers see now (no `status`).
        case live
        /// Drafts.
        case draft
        /// Published, with a publication still to come.
        case scheduled
        /// Published, and past their expiry.
        case expired
    }
}

/// What a write may require of the current state before it applies (`If-Match`).
enum WritePrecondition: Sendable, Equatable {
    /// No `If-Match`: apply unconditionally.
    case none
    /// `If-Match: *`: apply to any existing announcement.
    case exists
    /// `If-Match` with tags: apply only when the current revision is one of these.
    case revision(in: Set<Int>)

    func isSatisfied(by revision: Int) -> Bool {
        switch self {
        case .none, .exists: true
        case .revision(let allowed): allowed.contains(revision)
        }
    }
}
