import NIOCore

/// Most entries and most bytes a cache keeps.
struct CacheLimits: Sendable, Equatable {
    var entries: Int
    var bytes: Int
}

/// A cache's size and history, for `/metrics`.
struct CacheReport: Sendable {
    var name: String
    var entries: Int
    var bytes: Int
    var evictions: Int
    var limits: CacheLimits
}

/// A map bounded in entries and in bytes that, when full, lets go of what is least likely to be
/// asked for again: the server's caches (encoded answers, remembered sessions) keep their
/// entries in one, under their own lock.
///
/// Eviction follows S3-FIFO (Yang et al., "FIFO queues are all you need for cache eviction",
/// SOSP 2023), chosen for three reasons:
/// - **Scan resistance.** A new entry waits in a small probation queue (a tenth of the entries
///   and of the bytes); only one asked for again while there moves to the main queue. A burst of
///   keys used once (a crawler, random query strings) passes through probation and never
///   displaces the main queue's hot answers, which plain LRU would all let go.
/// - **Cheap hits.** A hit raises a small counter (at most 3) and moves nothing, so reads, the
///   common case, do the least work under the lock; an entry reaching the head of the main queue
///   goes round again while its counter is above zero (one less each time), so what stays hot
///   stays kept.
/// - **A second chance for the recently evicted.** Keys let go from probation are remembered
///   (their hashes only, as many as the entry limit) in a ghost list; such a key coming back goes
///   straight to the main queue. Entries dropped because their data changed are remembered there
///   too when they were hot, so a popular answer rebuilt after a write is not on probation again.
///
/// For entries whose storing costs as much as building them again (answers kept as sent), a
/// caller can ask ``admits(_:)`` first: while the cache is full, a key is admitted only on its
/// second sighting (kept, a ghost, or seen once before: hashes only, as many as the entry
/// limit), so a burst of keys used once costs a hash each instead of an entry that probation
/// lets go at once.
///
/// An entry larger than the byte limit is not kept at all. The queues hold keys, and entries
/// removed by ``removeAll(where:)`` are skipped when their turn comes; the queues are compacted
/// when such leftovers outnumber the live entries.
struct BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Limits = CacheLimits

    private struct Slot: Sendable {
        var value: Value
        var size: Int
        /// Hits since it entered its queue or last went round, at most 3.
        var frequency: UInt8
        var isMain: Bool
        /// Tells this slot's place in a queue from a place left by an earlier slot of the key.
        var stamp: UInt64
    }

    private struct Place: Sendable {
        var key: Key
        var stamp: UInt64
    }

    let limits: Limits
    private var slots: [Key: Slot] = [:]
    private var probation = CircularBuffer<Place>()
    private var main = CircularBuffer<Place>()
    /// Ghost key hashes, each with the stamp of its place in `ghostOrder`.
    private var ghosts: [Int: UInt64] = [:]
    private var ghostOrder = CircularBuffer<(hash: Int, stamp: UInt64)>()
    /// Hashes of keys refused once by ``admits(_:)``, oldest first in `sightingOrder`.
    private var sightings: Set<Int> = []
    private var sightingOrder = CircularBuffer<Int>()
    private var nextStamp: UInt64 = 0
    private var probationCount = 0
    private var probationBytes = 0
    /// The bytes of every entry kept.
    private(set) var bytes = 0
    /// Entries let go to make room, since the cache was made.
    private(set) var evictions = 0

    init(limits: Limits) {
        precondition(limits.entries > 0 && limits.bytes > 0, "a cache must be able to keep something")
        self.limits = limits
    }

    /// The number of entries kept.
    var count: Int { slots.count }

    /// The value kept for `key`, counted as a use.
    mutating func value(for key: Key) -> Value? {
        guard let index = slots.index(forKey: key) else { return nil }
        let frequency = slots.values[index].frequency
        if frequency < 3 { slots.values[index].frequency = frequency + 1 }
        return slots.values[index].value
    }

    /// The value kept for `key`, not counted as a use.
    func peek(_ key: Key) -> Value? {
        slots[key]?.value
    }

    /// Whether an entry for `key` is worth keeping: always while the cache has room (fewer
    /// entries than its limit, and under nine tenths of its bytes: the entry's size is not known
    /// yet); when full, only for a key kept or asked for before (a ghost, or refused here once
    /// not long ago). A key refused is remembered, so its next sighting is admitted. (A key
    /// admitted and refused again later keeps an older place in the order of sightings, so it
    /// may be forgotten a little early: an approximation that costs one more refusal at most.)
    mutating func admits(_ key: Key) -> Bool {
        if (slots.count < limits.entries && bytes < limits.bytes - limits.bytes / 10) || slots[key] != nil { return true }
        let hash = key.hashValue
        if ghosts[hash] != nil || sightings.remove(hash) != nil { return true }
        sightings.insert(hash)
        sightingOrder.append(hash)
        while sightingOrder.count > limits.entries {
            sightings.remove(sightingOrder.removeFirst())
        }
        return false
    }

    /// Keeps `value` of `size` bytes for `key`, letting go of others as needed; a value larger
    /// than the byte limit is not kept (and any earlier one for `key` is dropped).
    mutating func set(_ value: Value, for key: Key, size: Int) {
        guard size <= limits.bytes else {
            remove(key)
            return
        }
        if let index = slots.index(forKey: key) {
            let old = slots.values[index]
            bytes += size - old.size
            if !old.isMain { probationBytes += size - old.size }
            slots.values[index].value = value
            slots.values[index].size = size
        } else {
            nextStamp &+= 1
            let wasGhost = ghosts.removeValue(forKey: key.hashValue) != nil
            slots[key] = Slot(value: value, size: size, frequency: 0, isMain: wasGhost, stamp: nextStamp)
            bytes += size
            if wasGhost {
                main.append(Place(key: key, stamp: nextStamp))
            } else {
                probation.append(Place(key: key, stamp: nextStamp))
                probationCount += 1
                probationBytes += size
            }
        }
        evictUntilWithinLimits()
    }

    /// Drops the entry for `key`, if any.
    mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        forget(slot)
        compactIfSparse()
    }

    /// Drops every entry whose value matches; those that were hot are remembered as such.
    mutating func removeAll(where shouldRemove: (Value) -> Bool) {
        var removed: [(Key, Slot)] = []
        for (key, slot) in slots where shouldRemove(slot.value) {
            removed.append((key, slot))
        }
        for (key, slot) in removed {
            slots[key] = nil
            forget(slot)
            if slot.isMain || slot.frequency > 0 { remember(key) }
        }
        compactIfSparse()
    }

    /// Drops everything, the ghosts too.
    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        probation.removeAll(keepingCapacity: true)
        main.removeAll(keepingCapacity: true)
        ghosts.removeAll(keepingCapacity: true)
        ghostOrder.removeAll(keepingCapacity: true)
        sightings.removeAll(keepingCapacity: true)
        sightingOrder.removeAll(keepingCapacity: true)
        probationCount = 0
        probationBytes = 0
        bytes = 0
    }

    /// Places held in the queues, removed entries' leftovers included (for tests).
    var queuedPlaces: Int { probation.count + main.count }

    /// Every key and value kept, in no order.
    var allEntries: [(key: Key, value: Value)] {
        slots.map { ($0.key, $0.value.value) }
    }

    /// Every value kept, in no order (for diagnostics).
    var allValues: [Value] {
        slots.values.map(\.value)
    }

    // MARK: Eviction

    private mutating func forget(_ slot: Slot) {
        bytes -= slot.size
        if !slot.isMain {
            probationCount -= 1
            probationBytes -= slot.size
        }
    }

    private var isOverLimits: Bool { slots.count > limits.entries || bytes > limits.bytes }

    private mutating func evictUntilWithinLimits() {
        while isOverLimits {
            let probationIsFull = probationCount * 10 > limits.entries || probationBytes * 10 > limits.bytes
            if (probationIsFull || main.isEmpty) && !probation.isEmpty {
                evictFromProbation()
            } else if !main.isEmpty {
                evictFromMain()
            } else {
                return  // unreachable while the counts agree with the queues
            }
        }
    }

    /// Takes the oldest entry on probation: used since it came, it moves to the main queue;
    /// otherwise it goes, and its key becomes a ghost.
    private mutating func evictFromProbation() {
        let place = probation.removeFirst()
        guard let slot = slots[place.key], slot.stamp == place.stamp, !slot.isMain else { return }
        probationCount -= 1
        probationBytes -= slot.size
        if slot.frequency > 0 {
            slots[place.key]?.isMain = true
            slots[place.key]?.frequency = 0
            main.append(place)
        } else {
            slots[place.key] = nil
            bytes -= slot.size
            evictions += 1
            remember(place.key)
        }
    }

    /// Takes the oldest entry of the main queue: used since its last turn, it goes round again
    /// with one use less; otherwise it goes.
    private mutating func evictFromMain() {
        let place = main.removeFirst()
        guard let slot = slots[place.key], slot.stamp == place.stamp, slot.isMain else { return }
        if slot.frequency > 0 {
            slots[place.key]?.frequency = slot.frequency - 1
            main.append(place)
        } else {
            slots[place.key] = nil
            bytes -= slot.size
            evictions += 1
        }
    }

    private mutating func remember(_ key: Key) {
        let hash = key.hashValue
        guard ghosts[hash] == nil else { return }
        nextStamp &+= 1
        ghosts[hash] = nextStamp
        ghostOrder.append((hash, nextStamp))
        while ghostOrder.count > limits.entries {
            let oldest = ghostOrder.removeFirst()
            // A key stored and let go again since has a newer place: that one counts.
            if ghosts[oldest.hash] == oldest.stamp { ghosts[oldest.hash] = nil }
        }
    }

    /// Rebuilds the queues without the places of removed entries once those are the majority.
    private mutating func compactIfSparse() {
        guard probation.count + main.count > 2 * slots.count + 64 else { return }
        let slots = self.slots
        func isLive(_ place: Place) -> Bool { slots[place.key]?.stamp == place.stamp }
        probation = CircularBuffer(probation.filter(isLive))
        main = CircularBuffer(main.filter(isLive))
    }
}
