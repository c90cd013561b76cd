import IntranetHTML
import Synchronization

/// Announcements' bodies as the plain text snippets are cut from, kept for the announcements
/// found most often: turning a body's HTML into text was a tenth of a search's time, for every
/// result of every page, and reading the body from the database another tenth (a search reads
/// only the bodies not kept here).
///
/// Kept under the announcement's id, revision and creation time (every change of a body makes
/// a new revision, through any instance or import; an id the database gives again, after the
/// newest announcement was deleted, comes with another creation time) and checked against the
/// body's length; a text kept for an older revision is never given for a newer one, and goes
/// when the cache needs its room.
final class PlainBodies: Sendable {
    /// Which body of which announcement.
    struct Key: Hashable, Sendable {
        let id: Int
        let revision: Int
        /// Seconds since 1970.
        let createdAt: Double
    }

    /// A body as plain text, and its words folded once it is found again (so that marking a
    /// query's words in it folds nothing: scanning a body for them was a fifth of a search's
    /// time; a body seen once is scanned only up to what its snippet shows).
    struct Entry: Sendable {
        var text: String
        var words: SearchText.FoldedWords?
        /// The UTF-8 bytes of the body it was made from (its HTML).
        var length = 0

        /// About the bytes it holds.
        var size: Int { text.utf8.count + (words?.size ?? 0) + 64 }
    }

    private let kept: Mutex<BoundedCache<Key, Entry>>

    init(limits: CacheLimits = CacheLimits(entries: 20_000, bytes: 64 << 20)) {
        kept = Mutex(BoundedCache(limits: limits))
    }

    /// Whether a text is kept for `key` (its length is checked when it is asked for).
    func isKept(_ key: Key) -> Bool {
        kept.withLock { $0.value(for: key) != nil }
    }

    /// The text kept for `key`, made from a body of `length` UTF-8 bytes; with its words folded
    /// now when it is found again. `nil` when none is kept, or one for a body of another length.
    func kept(_ key: Key, length: Int) -> Entry? {
        guard var entry = kept.withLock({ $0.value(for: key) }), entry.length == length else { return nil }
        guard entry.words == nil else { return entry }
        entry.words = SearchText.foldedWords(entry.text)
        kept.withLock { $0.set(entry, for: key, size: entry.size) }
        return entry
    }

    /// `body` as plain text (empty without a body), up to the characters the search index
    /// reads, kept under `key`; the kept one when it was made before from the same body.
    func entry(_ key: Key, body: String?) -> Entry {
        let length = body?.utf8.count ?? 0
        if let entry = kept(key, length: length) { return entry }
        let entry = Self.entry(of: body)
        kept.withLock { $0.set(entry, for: key, size: entry.size) }
        return entry
    }

    /// `body` as plain text, kept nowhere.
    static func entry(of body: String?) -> Entry {
        guard let body else { return Entry(text: "") }
        return Entry(text: HTMLText.plain(body, limit: AnnouncementSearchIndex.maxIndexedCharacters), length: body.utf8.count)
    }
}

extension PlainBodies.Key {
    /// The key of the body of the announcement `entry` indexes.
    init(_ entry: AnnouncementSearchSnapshot.Entry) {
        self.init(id: entry.id, revision: entry.revision, createdAt: entry.createdAt)
    }
}
