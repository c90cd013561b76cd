/// A set of small whole numbers (the slots of ``AnnouncementSearchSnapshot``) as one bit each:
/// what lets a search intersect the postings of words found in tens of thousands of
/// announcements in microseconds.
struct SlotSet: Sendable {
    private var words: [UInt64]

    /// An empty set that can hold the numbers below `capacity`.
    init(capacity: Int) {
        words = Array(repeating: 0, count: (capacity + 63) / 64)
    }

    /// The set of `slots`, each below `capacity`.
    init(_ slots: some Sequence<UInt32>, capacity: Int) {
        self.init(capacity: capacity)
        formUnion(slots)
    }

    /// Adds `slots` (each below the capacity).
    mutating func formUnion(_ slots: some Sequence<UInt32>) {
        words.withUnsafeMutableBufferPointer { words in
            for slot in slots {
                words[Int(slot >> 6)] |= 1 << UInt64(slot & 63)
            }
        }
    }

    /// Adds `slot`, making room for it if it is beyond the capacity.
    mutating func insert(_ slot: UInt32) {
        let index = Int(slot >> 6)
        if index >= words.count { words += Array(repeating: 0, count: index + 1 - words.count) }
        words[index] |= 1 << UInt64(slot & 63)
    }

    /// The set with room for the numbers below `capacity` (none dropped: it only grows).
    func resized(to capacity: Int) -> SlotSet {
        var resized = self
        let count = (capacity + 63) / 64
        if count > words.count { resized.words += Array(repeating: 0, count: count - words.count) }
        return resized
    }

    /// Adds the numbers of `other` (of no larger capacity).
    mutating func formUnion(_ other: SlotSet) {
        precondition(other.words.count <= words.count, "a union with a larger slot set")
        words.withUnsafeMutableBufferPointer { words in
            other.words.withUnsafeBufferPointer { others in
                for index in others.indices { words[index] |= others[index] }
            }
        }
    }

    /// Keeps only the numbers `other` holds too (both of the same capacity).
    mutating func formIntersection(_ other: SlotSet) {
        precondition(words.count == other.words.count, "slot sets of different capacities")
        words.withUnsafeMutableBufferPointer { words in
            other.words.withUnsafeBufferPointer { others in
                for index in words.indices { words[index] &= others[index] }
            }
        }
    }

    /// Whether both hold the same numbers (whatever their capacities).
    func elementsEqual(_ other: SlotSet) -> Bool {
        let count = max(words.count, other.words.count)
        return (0..<count).allSatisfy { index in
            (index < words.count ? words[index] : 0) == (index < other.words.count ? other.words[index] : 0)
        }
    }

    /// Removes the numbers `other` holds (both of the same capacity).
    mutating func subtract(_ other: SlotSet) {
        precondition(words.count == other.words.count, "slot sets of different capacities")
        words.withUnsafeMutableBufferPointer { words in
            other.words.withUnsafeBufferPointer { others in
                for index in words.indices { words[index] &= ~others[index] }
            }
        }
    }

    /// How many numbers it holds.
    var count: Int {
        words.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    /// Whether `slot` is in the set.
    func contains(_ slot: UInt32) -> Bool {
        let index = Int(slot >> 6)
        return index < words.count && words[index] & (1 << UInt64(slot & 63)) != 0
    }

    /// Calls `body` with each number in the set, in ascending order.
    func forEach(_ body: (UInt32) -> Void) {
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                let bit = rest.trailingZeroBitCount
                body(UInt32(index << 6 + bit))
                rest &= rest - 1
            }
        }
    }
}
