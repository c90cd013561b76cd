import Foundation

/// An announcement as the server knows it, independent of storage and API version.
struct StoredAnnouncement: Sendable, Equatable {
    var id: Int
    var title: String
    var body: String?
    /// Incremented on every write; the `ETag` is built from it.
    var revision: Int
    var createdAt: Date
    var updatedAt: Date
    /// The users who may read it besides editors and admins; `nil` when everyone may.
    var readers: [Int]?
}

/// The fields a client may write: the result of a validated `POST`, `PUT` or merged `PATCH`.
struct AnnouncementContent: Sendable, Equatable {
    var title: String
    var body: String?
    /// Who may read it; `nil` for everyone.
    var readers: [Int]?
}

/// Which announcements a caller may see.
enum Visibility: Sendable, Hashable {
    /// Editors and admins: everything.
    case everything
    /// Signed-out callers: unrestricted announcements only.
    case unrestricted
    /// A reader: unrestricted ones and those naming this user id.
    case reader(userID: Int)
    /// A view shared by readers: unrestricted ones and these restricted ones (the announcements
    /// naming every reader of the view, ``ResponseCache/view(for:)``), so that what is kept for
    /// the view depends on the view alone.
    case granted(Set<Int>)

    func allows(_ announcement: StoredAnnouncement) -> Bool {
        switch self {
        case .everything: true
        case .unrestricted: announcement.readers == nil
        case .reader(let userID): announcement.readers?.contains(userID) ?? true
        case .granted(let ids): announcement.readers == nil || ids.contains(announcement.id)
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
