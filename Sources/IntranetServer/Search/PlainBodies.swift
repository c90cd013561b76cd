import IntranetHTML
import Synchronization

/// Announcements' bodies as the plain text snippets are cut from, kept for the announcements
/// found most often: turning a body's HTML into text was a tenth of a search's time, for every
/// result of every page, and reading the body from the database another tenth (a search reads
/// only the bodies not kept here).
///
/// One text per announcement, given only for the revision and creation time it was made for
/// (every change of a body makes a new revision, through any instance or import) and a body of
/// the same length; and forgotten as soon as the announcement changes or goes
/// (``AnnouncementSearchMemory`` tells, as changes arrive), so that an id the database gives
/// again after the newest announcement was deleted never finds the deleted one's text.
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

    private struct Kept: Sendable {
        var key: Key
        var entry: Entry
    }

    private let kept: Mutex<BoundedCache<Int, Kept>>

    init(limits: CacheLimits = CacheLimits(entries: 20_000, bytes: 64 << 20)) {
        kept = Mutex(BoundedCache(limits: limits))
    }

    /// Whether a text is kept for `key` (its length is checked when it is asked for).
    func isKept(_ key: Key) -> Bool {
        kept.withLock { $0.peek(key.id)?.key == key }
    }

    /// The text kept for `key`, made from a body of `length` UTF-8 bytes; with its words folded
    /// now when it is found again. `nil` when none is kept, or one for another revision, or a
    /// body of another length.
    func kept(_ key: Key, length: Int) -> Entry? {
        guard var kept = kept.withLock({ $0.value(for: key.id) }), kept.key == key, kept.entry.length == length else { return nil }
        guard kept.entry.words == nil else { return kept.entry }
        kept.entry.words = SearchText.foldedWords(kept.entry.text)
        keep(kept)
        return kept.entry
    }

    /// `body` as plain text (empty without a body), up to the characters the search index
    /// reads, kept under `key`; the kept one when it was made before from the same body.
    ///
    /// - Parameter length: the body's length in bytes as the database counts it (by default,
    ///   its UTF-8 bytes).
    func entry(_ key: Key, body: String?, length: Int? = nil) -> Entry {
        let length = length ?? body?.utf8.count ?? 0
        if let entry = kept(key, length: length) { return entry }
        var entry = Self.entry(of: body)
        entry.length = length
        keep(Kept(key: key, entry: entry))
        return entry
    }

    /// Forgets the texts of announcements `ids` (changed, or gone).
    func forget(_ ids: some Sequence<Int>) {
        kept.withLock { kept in
            for id in ids { kept.remove(id) }
        }
    }

    /// Forgets every text (announcements changed without saying which).
    func forgetAll() {
        kept.withLock { $0.removeAll() }
    }

    private func keep(_ kept: Kept) {
        self.kept.withLock { $0.set(kept, for: kept.key.id, size: kept.entry.size) }
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
