/// The string table of a message being written: each distinct text and its index, in order of
/// first appearance (docs/spearal.md section 4).
///
/// An open-addressing table rather than a `Dictionary`, because a message can hold thousands
/// of long strings (HTML bodies of a few KiB): each text is hashed once, from its length and up
/// to 32 bytes at each end, with a fast multiply-fold mix under a per-process random seed, and
/// that hash is kept to grow the table without rehashing. Equality compares UTF-8 bytes, as Java
/// compares strings: Swift's `==` also equates canonically equivalent texts (`é` and `e` +
/// U+0301), which must stay distinct on the wire.
struct SpearalStringTable {
    private struct Entry {
        let hash: UInt64
        let string: String
    }

    /// Entry positions plus one by slot; 0 marks an empty slot. At most half full.
    private var slots: [Int32]
    private var entries: [Entry] = []

    /// How many bytes are read at each end of a text.
    private static let edge = 32
    /// A random value per process (taken from `Hasher`'s own random seeding).
    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x5350_4541_5241_4C)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }()

    init() {
        slots = Array(repeating: 0, count: 256)
    }

    /// The number of entries (the next index).
    var count: Int { entries.count }

    /// The index of `string` if it is in the table; otherwise adds it with the next index.
    /// - Returns: the index and whether `string` was already there.
    @discardableResult
    mutating func index(of string: String) -> (index: Int, isKnown: Bool) {
        let hash = Self.hash(of: string)
        let (slot, known) = find(string, hash: hash)
        if let known { return (known, true) }
        let position = entries.count
        entries.append(Entry(hash: hash, string: string))
        slots[slot] = Int32(truncatingIfNeeded: position + 1)
        if entries.count * 2 > slots.count { grow() }
        return (position, false)
    }

    /// The index of `string` if it is in the table, without adding it.
    func knownIndex(of string: String) -> Int? {
        find(string, hash: Self.hash(of: string)).position
    }

    /// The entry position of `string`, or the empty slot where it belongs.
    private func find(_ string: String, hash: UInt64) -> (slot: Int, position: Int?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            let entry = entries[position]
            if entry.hash == hash && Self.sameBytes(entry.string, string) {
                return (slot, position)
            }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// Doubles the slots and places the entries again from their kept hashes.
    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (position, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: position + 1)
        }
    }

    /// Whether the two texts have the same UTF-8 bytes.
    private static func sameBytes(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        let compared: Bool? = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.elementsEqual(rightBytes)
            }
        } ?? nil
        return compared ?? left.utf8.elementsEqual(right.utf8)
    }

    /// Mixes the length and up to `edge` bytes at each end of `string`.
    private static func hash(of string: String) -> UInt64 {
        let hashed: UInt64? = string.utf8.withContiguousStorageIfAvailable { hash(of: UnsafeRawBufferPointer($0)) }
        if let hashed { return hashed }
        // Bridged strings have no contiguous UTF-8 storage: copy it once.
        return Array(string.utf8).withUnsafeBytes { hash(of: $0) }
    }

    private static func hash(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        let edge = Swift.min(bytes.count, Self.edge)
        var state = mix(seed ^ UInt64(bytes.count), 0x9E37_79B9_7F4A_7C15)
        state = mix(state, bytes: UnsafeRawBufferPointer(rebasing: bytes[..<edge]))
        state = mix(state, bytes: UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - edge)...]))
        return state
    }

    /// Folds `bytes` into `state`, eight at a time.
    private static func mix(_ state: UInt64, bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = state
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), 0xA076_1D64_78BD_642F)
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        return mix(state ^ tail, 0xE703_7ED1_A0B4_28DB)
    }

    /// The high and low halves of the full product, folded together.
    @inline(__always)
    private static func mix(_ left: UInt64, _ right: UInt64) -> UInt64 {
        let product = left.multipliedFullWidth(by: right)
        return product.high ^ product.low
    }
}
