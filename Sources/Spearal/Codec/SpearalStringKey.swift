/// A string-table key that hashes only the length and both ends of the text, once.
///
/// Long strings (an HTML body of a few KiB) would otherwise be hashed in full on every
/// lookup, insertion and table resize; equality still compares the whole text, so the table
/// stays exact.
struct SpearalStringKey: Hashable {
    let string: String
    private let hash: Int

    init(_ string: String) {
        self.string = string
        var hasher = Hasher()
        var utf8 = string.utf8
        hasher.combine(utf8.count)
        let hashedInPlace: Bool? = utf8.withContiguousStorageIfAvailable { buffer in
            let edge = Swift.min(buffer.count, 32)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<edge])))
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[(buffer.count - edge)...])))
            return true
        }
        if hashedInPlace == nil {
            // Bridged or shared strings: make them native once, then hash their ends.
            var copy = string
            copy.makeContiguousUTF8()
            utf8 = copy.utf8
            for byte in utf8.prefix(32) { hasher.combine(byte) }
            for byte in utf8.suffix(32) { hasher.combine(byte) }
        }
        hash = hasher.finalize()
    }

    /// Byte equality, as Java compares strings: Swift's `==` also equates canonically equivalent
    /// texts (`é` and `e` + U+0301), which must stay distinct on the wire.
    static func == (lhs: SpearalStringKey, rhs: SpearalStringKey) -> Bool {
        guard lhs.hash == rhs.hash, lhs.string == rhs.string else { return false }
        return lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
