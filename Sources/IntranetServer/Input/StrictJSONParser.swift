/// A strict RFC 8259 JSON parser producing ``JSONValue``.
///
/// Foundation's parser accepts some invalid documents (trailing commas in objects); a client
/// that sends them has a bug it should hear about, so the server parses request bodies itself.
/// Nesting is limited, so a hostile body cannot exhaust the stack.
struct StrictJSONParser {
    /// Why a document was refused (the server answers every case with the same 400).
    struct SyntaxError: Error, Equatable {
        var offset: Int
        var reason: String
    }

    static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a whole document; anything but white space after the value is an error.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = StrictJSONParser(bytes)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected data after the value") }
        return value
    }

    private func failure(_ reason: String) -> SyntaxError {
        SyntaxError(offset: index, reason: reason)
    }

    private var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private mutating func expect(_ literal: String, value: JSONValue) throws(SyntaxError) -> JSONValue {
        for byte in literal.utf8 {
            guard current == byte else { throw failure("invalid literal") }
            index += 1
        }
        return value
    }

    private mutating func value() throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{"): return try nested { (parser: inout StrictJSONParser) throws(SyntaxError) in try parser.object() }
        case UInt8(ascii: "["): return try nested { (parser: inout StrictJSONParser) throws(SyntaxError) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return try number()
        case nil: throw failure("unexpected end of data")
        default: throw failure("unexpected character")
        }
    }

    private mutating func nested(_ parse: (inout StrictJSONParser) throws(SyntaxError) -> JSONValue) throws(SyntaxError) -> JSONValue {
        depth += 1
        guard depth <= Self.maxDepth else { throw failure("nested deeper than \(Self.maxDepth) levels") }
        defer { depth -= 1 }
        return try parse(&self)
    }

    private mutating func object() throws(SyntaxError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            members[key] = try value()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array() throws(SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(SyntaxError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits() > 0 else { throw failure("invalid number") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard try digits() > 0 else { throw failure("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw failure("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw failure("number out of range") }
        return .number(number)
    }

    private mutating func digits() throws(SyntaxError) -> Int {
        var count = 0
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
            count += 1
        }
        return count
    }

    private mutating func string() throws(SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                try appendRun(from: runStart, to: &scalars)
                index += 1
                if byte == UInt8(ascii: "\"") { return String(scalars) }
                scalars.append(try escape())
                runStart = index
            } else if byte < 0x20 {
                throw failure("control character in string")
            } else {
                index += 1
            }
        }
    }

    /// Appends the raw bytes since `start`, which must be valid UTF-8.
    private func appendRun(from start: Int, to scalars: inout String.UnicodeScalarView) throws(SyntaxError) {
        guard start < index else { return }
        guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
            throw SyntaxError(offset: start, reason: "invalid UTF-8")
        }
        scalars.append(contentsOf: text.unicodeScalars)
    }

    private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hexQuad()
            if (0xD800...0xDBFF).contains(first) {
                guard current == UInt8(ascii: "\\") else { throw failure("lone surrogate") }
                index += 1
                guard current == UInt8(ascii: "u") else { throw failure("lone surrogate") }
                index += 1
                let second = try hexQuad()
                guard (0xDC00...0xDFFF).contains(second),
                      let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                else { throw failure("invalid surrogate pair") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(first) else { throw failure("lone surrogate") }
            return scalar
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw failure("invalid \\u escape") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
