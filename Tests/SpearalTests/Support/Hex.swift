import Foundation

/// Hex text ↔ bytes for readable expectations.
enum Hex {
    static func bytes(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace }.utf8)
        var result: [UInt8] = []
        var index = 0
        while index + 1 < digits.count {
            let pair = String(decoding: digits[index...(index + 1)], as: UTF8.self)
            result.append(UInt8(pair, radix: 16) ?? 0)
            index += 2
        }
        return result
    }

    static func string(_ data: Data) -> String {
        data.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
