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

    /// Keeps only the numbers `other` holds too (both of the same capacity).
    mutating func formIntersection(_ other: SlotSet) {
        precondition(words.count == other.words.count, "slot sets of different capacities")
        words.withUnsafeMutableBufferPointer { words in
            other.words.withUnsafeBufferPointer { others in
                for index in words.indices { words[index] &= others[index] }
            }
        }
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
