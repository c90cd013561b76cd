import Synchronization

/// The announcements holding a quoted phrase (or a run of ideographs, searched as a phrase of
/// pairs), as slots of one snapshot of ``AnnouncementSearchMemory``: the index in memory holds
/// no positions, so each is asked of the database's index, where checking positions took
/// PostgreSQL 12 ms for a phrase of two common pairs. Kept per phrase until the snapshot
/// changes (any change to announcements), for at most ``maxAge`` (the database's index may be
/// rebuilt by another process, which changes no announcement), and for up to ``limit`` phrases.
final class KeptPhrases: Sendable {
    /// The most phrases kept (12.5 KB each for 100,000 announcements); all are let go when one
    /// more comes.
    static let limit = 64
    /// How long a phrase's matches are kept at most.
    static let maxAge = Duration.seconds(60)

    private struct Kept {
        var stamp: UInt64
        var since: ContinuousClock.Instant
        var slots: SlotSet
    }

    private let kept = Mutex<[[String]: Kept]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.now = now
    }

    /// The slots kept for `words` in the snapshot of `stamp`, or `nil`.
    func slots(of words: [String], stamp: UInt64) -> SlotSet? {
        let now = now()
        return kept.withLock { kept in
            guard let entry = kept[words], entry.stamp == stamp, now - entry.since < Self.maxAge else { return nil }
            return entry.slots
        }
    }

    /// Keeps `slots` as those holding `words` in the snapshot of `stamp` (forgetting those of
    /// older snapshots first, and every one when the limit is reached); nothing when phrases of
    /// a newer snapshot are kept (a search that took long).
    func keep(_ slots: SlotSet, of words: [String], stamp: UInt64) {
        let now = now()
        kept.withLock { kept in
            if kept.values.contains(where: { $0.stamp > stamp }) { return }
            kept = kept.filter { $0.value.stamp == stamp && now - $0.value.since < Self.maxAge }
            if kept.count >= Self.limit { kept.removeAll() }
            kept[words] = Kept(stamp: stamp, since: now, slots: slots)
        }
    }
}
