import Synchronization

/// The announcements holding a quoted phrase (or a run of ideographs, searched as a phrase of
/// pairs), as slots of one snapshot of ``AnnouncementSearchMemory``: the index in memory holds
/// no positions, so each is asked of the database's index, where checking positions took
/// PostgreSQL 12 ms for a phrase of two common pairs. Kept per phrase until the snapshot
/// changes (any change to announcements), for the phrases searched most recently.
final class KeptPhrases: Sendable {
    /// The most phrases kept (12.5 KB each for 100,000 announcements).
    static let limit = 64

    private let kept = Mutex<[[String]: (stamp: UInt64, slots: SlotSet)]>([:])

    /// The slots kept for `words` in the snapshot of `stamp`, or `nil`.
    func slots(of words: [String], stamp: UInt64) -> SlotSet? {
        kept.withLock { kept in
            guard let entry = kept[words], entry.stamp == stamp else { return nil }
            return entry.slots
        }
    }

    /// Keeps `slots` as those holding `words` in the snapshot of `stamp` (forgetting those of
    /// older snapshots first, and every one when the limit is reached).
    func keep(_ slots: SlotSet, of words: [String], stamp: UInt64) {
        kept.withLock { kept in
            kept = kept.filter { $0.value.stamp == stamp }
            if kept.count >= Self.limit { kept.removeAll() }
            kept[words] = (stamp, slots)
        }
    }
}
