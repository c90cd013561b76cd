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

    /// A body as plain text, and its words folded once it is found again (so that marking a
    /// query's words in it folds nothing: scanning a body for them was a fifth of a search's
    /// time; a body seen once is scanned only up to what its snippet shows).
    struct Entry: Sendable {
        var text: String
        var words: SearchText.FoldedWords?

        /// About the bytes it holds.
        var size: Int { text.utf8.count + (words?.size ?? 0) + 64 }
    }

    private let kept: Mutex<BoundedCache<Key, Entry>>

    init(limits: CacheLimits = CacheLimits(entries: 20_000, bytes: 64 << 20)) {
        kept = Mutex(BoundedCache(limits: limits))
    }

    /// The body of `announcement` as plain text (empty without a body), up to the characters
    /// the search index reads; with its words folded when it was asked for before.
    func entry(of announcement: FoundAnnouncement) -> Entry {
        guard let body = announcement.body else { return Entry(text: "") }
        let key = Key(id: announcement.id, revision: announcement.revision, length: body.utf8.count)
        if var entry = kept.withLock({ $0.value(for: key) }) {
            guard entry.words == nil else { return entry }
            entry.words = SearchText.foldedWords(entry.text)
            kept.withLock { $0.set(entry, for: key, size: entry.size) }
            return entry
        }
        let entry = Entry(text: HTMLText.plain(body, limit: AnnouncementSearchIndex.maxIndexedCharacters))
        kept.withLock { $0.set(entry, for: key, size: entry.size) }
        return entry
    }
}
