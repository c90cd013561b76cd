import IntranetHTML
import Synchronization

/// Announcements' bodies as the plain text snippets are cut from, kept for the announcements
/// found most often: turning a body's HTML into text was a tenth of a search's time, for every
/// result of every page.
///
/// Kept under the announcement's id and revision (every change of a body makes a new
/// revision, through any instance or import) and the body's length; a text kept for an older
/// revision is never given for a newer one, and goes when the cache needs its room.
final class PlainBodies: Sendable {
    private struct Key: Hashable, Sendable {
        let id: Int
        let revision: Int
        let length: Int
    }

    private let kept: Mutex<BoundedCache<Key, String>>

    init(limits: CacheLimits = CacheLimits(entries: 20_000, bytes: 32 << 20)) {
        kept = Mutex(BoundedCache(limits: limits))
    }

    /// The body of `announcement` as plain text (empty without a body), up to the characters
    /// the search index reads.
    func text(of announcement: StoredAnnouncement) -> String {
        guard let body = announcement.body else { return "" }
        let key = Key(id: announcement.id, revision: announcement.revision, length: body.utf8.count)
        if let text = kept.withLock({ $0.value(for: key) }) { return text }
        let text = HTMLText.plain(body, limit: AnnouncementSearchIndex.maxIndexedCharacters)
        kept.withLock { $0.set(text, for: key, size: text.utf8.count + 64) }
        return text
    }
}
