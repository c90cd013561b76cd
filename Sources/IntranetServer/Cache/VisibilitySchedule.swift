import Foundation

/// When what readers see next changes with no write — a scheduled post's publication, an
/// expiry, the end of a pin — as the response cache knows it: answers about announcements are
/// used and kept only while it is known for the current generation of announcements and that
/// instant has not come (``ResponseCache``). When it comes, the cache announces a change of
/// announcements through the pipeline, as a write would (``ResponseCache/passBoundary()``), on
/// every instance by its own clock: nothing is written, and nothing waits for another instance.
///
/// The next instant is read as the first one after the *start* of the current generation, not
/// after the moment of reading: an answer kept at this generation may have been read from the
/// database at any time since it began, so an instant passed in between must count (it is then
/// already due, and the cache announces it at once).
struct VisibilitySchedule: Sendable {
    /// Reads the first instant after a moment at which visibility changes (`nil`: none ahead).
    typealias Loader = @Sendable (_ after: Date) async throws -> Date?

    /// The generation of announcements the schedule was read for; `nil` until read.
    var generation: UInt64?
    /// The next instant at which visibility changes, when `generation` is current; `nil` for none.
    var nextChange: Date?
    /// When the current generation of announcements began.
    var generationStart: Date
    /// The read under way, and the generation it reads for.
    var read: (task: Task<Date?, any Error>, generation: UInt64)?
    /// Whether the boundary at `nextChange` was announced (once per generation).
    var isAnnounced = false
    /// What wakes the cache at `nextChange` when no request comes to notice it.
    var timer: Task<Void, Never>?

    init(now: Date) {
        generationStart = now
    }

    /// Whether answers about announcements may be used or kept at `now` in `generation`.
    func isCurrent(at now: Date, generation current: UInt64) -> Bool {
        guard generation == current else { return false }
        return nextChange.map { now < $0 } ?? true
    }

    /// Whether `now` is at or past the known next change of `generation`, not yet announced.
    func isDue(at now: Date, generation current: UInt64) -> Bool {
        guard generation == current, !isAnnounced, let nextChange else { return false }
        return now >= nextChange
    }

    /// Forgets the schedule: announcements changed at `now`.
    mutating func restart(at now: Date) {
        generation = nil
        nextChange = nil
        generationStart = now
        read = nil
        isAnnounced = false
        timer?.cancel()
        timer = nil
    }
}
