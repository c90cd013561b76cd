import NIOCore
import Synchronization

/// Whether this instance may trust what it remembers (cached answers, sessions) without asking
/// the database, and until when.
///
/// On an embedded database every change goes through this process, so memory is always right
/// (``always``). When instances share PostgreSQL, ``ChangeFeed`` extends the trust each time it
/// has proof that every change committed up to a moment has reached this instance; the trust ends
/// ``ChangeFeed/stalenessBound`` after that moment, so a write made through another instance is
/// seen here within that bound even when the feed fails silently. While not trusted, reads ask
/// the database (the revision; the session) as an instance without the feed would.
final class ChangeTrust: Sendable {
    /// The uptime in nanoseconds until which memory is trusted; `UInt64.max` for ever.
    private let trustedUntil: Atomic<UInt64>

    private init(trustedUntil: UInt64) {
        self.trustedUntil = Atomic(trustedUntil)
    }

    /// Trust that never ends: every change goes through this process.
    static func always() -> ChangeTrust { ChangeTrust(trustedUntil: .max) }

    /// Trust that starts ended and is extended by a ``ChangeFeed``.
    static func fed() -> ChangeTrust { ChangeTrust(trustedUntil: 0) }

    /// Whether memory is trusted now.
    var isTrusted: Bool {
        let until = trustedUntil.load(ordering: .acquiring)
        return until == .max || NIODeadline.now().uptimeNanoseconds < until
    }

    /// Trusts memory until `deadline`, unless it is already trusted for longer.
    func extend(until deadline: NIODeadline) {
        let target = deadline.uptimeNanoseconds
        var current = trustedUntil.load(ordering: .relaxed)
        while current < target {
            let (exchanged, original) = trustedUntil.compareExchange(
                expected: current, desired: target, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Stops trusting memory at once (the feed is lost).
    func revoke() {
        trustedUntil.store(0, ordering: .releasing)
    }
}
