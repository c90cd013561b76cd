import Foundation
import IntranetAPI

/// What each reader is told of an entry of the change log: the same rules as reads, applied
/// when the event is sent.
extension EventHub {
    /// An entry with what it names as it is now.
    struct Prepared {
        var entry: ChangeLogEntry
        /// The announcement now (`nil`: deleted since, or the entry names a person).
        var announcement: StoredAnnouncement?
        /// A person's 2.0 detail tag (`nil`: deleted, or not a person entry).
        var personTag: String?
    }

    /// One event as a stream sends it: its name and payload (its id is the entry's).
    struct Event: Hashable {
        var name: String
        var payload: ServerSentEvents.Payload?
    }

    /// The event `entry` makes for a reader, if any: `created`/`changed` when they may read the
    /// announcement now (`created` when it is new to them), `deleted` when they could before and
    /// may not now, nothing when they could not and cannot.
    static func event(for prepared: Prepared, to viewer: Viewer, seeing visibility: Visibility, at now: Date) -> Event? {
        let entry = prepared.entry
        guard let subject = entry.subject else {
            return Event(name: "reset", payload: nil)
        }
        if entry.kind == .person {
            return Event(name: "person.changed", payload: .init(id: subject, etag: prepared.personTag))
        }
        guard let announcement = prepared.announcement else {
            // Deleted since: only the deletion's own entry says so.
            guard entry.kind == .deleted, Self.couldRead(entry.former, viewer) else { return nil }
            return Event(name: "announcement.deleted", payload: .init(id: subject))
        }
        // What the clock made is judged at its moment: readers then saw it appear, or go, even
        // when this clock is a little behind, or the entry is read later (a replay).
        let moment = entry.isScheduled ? entry.at : now
        guard visibility.allows(announcement, at: moment) else {
            guard let former = entry.former, Self.couldRead(former, viewer) else { return nil }
            return Event(name: "announcement.deleted", payload: .init(id: subject))
        }
        let isNew: Bool = switch entry.kind {
        case .created: true
        case .published: !viewer.isEditor
        default: !viewer.isEditor && entry.former.map { !Self.couldRead($0, viewer) } ?? false
        }
        let tag = EntityTag.forAnnouncement(
            id: announcement.id, revision: announcement.revision, version: .v2_0, showsReaders: viewer.isEditor)
        return Event(name: isNew ? "announcement.created" : "announcement.changed", payload: .init(id: subject, etag: tag))
    }

    /// Whether `viewer` could read an announcement whose readers were `former`.
    static func couldRead(_ former: FormerReaders?, _ viewer: Viewer) -> Bool {
        guard let former else { return false }
        if viewer.isEditor || former.everyone { return true }
        guard let user = viewer.user else { return false }
        return former.audience || former.users.contains(user.id)
    }
}
