/// The text form of BIG_INTEGRAL and BIG_FLOATING values (docs/spearal.md section 3.4).
enum SpearalBigNumberText {
    /// spearal-java's exponentized form of a plain decimal integer: text longer than three
    /// characters ending with three or more zeros loses them for an `E<count>` suffix
    /// (`1000` → `1E3`, `100` stays). Text that is not plain digits is returned unchanged.
    static func exponentized(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.count > 3, !utf8.contains(UInt8(ascii: "E")) else { return text }
        var zeros = 0
        for byte in utf8.reversed() {
            guard byte == UInt8(ascii: "0") else { break }
            zeros += 1
        }
        guard zeros >= 3, zeros < utf8.count else { return text }
        return String(decoding: utf8.prefix(utf8.count - zeros), as: UTF8.self) + "E\(zeros)"
    }

    /// The nibble values of `text`, throwing when a character is outside `0-9 + - . E`.
    static func nibbles(of text: String) throws(SpearalError) -> [UInt8] {
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            let symbol = byte == UInt8(ascii: "e") ? UInt8(ascii: "E") : byte
            guard let index = SpearalTypeByte.bigNumberSymbols.firstIndex(of: symbol) else {
                throw .unencodableValue("big number text \"\(text)\" has a character outside 0-9 + - . E")
            }
            nibbles.append(UInt8(index))
        }
        guard !nibbles.isEmpty else {
            throw .unencodableValue("big number text is empty")
        }
        return nibbles
    }

    /// The text of decoded nibbles, or `nil` when a nibble is not a symbol (0xE, 0xF).
    static func text(of nibbles: [UInt8]) -> String? {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(nibbles.count)
        for nibble in nibbles {
            guard Int(nibble) < SpearalTypeByte.bigNumberSymbols.count else { return nil }
            utf8.append(SpearalTypeByte.bigNumberSymbols[Int(nibble)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
