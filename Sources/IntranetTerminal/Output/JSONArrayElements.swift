import Foundation

/// Splits a JSON array's bytes into the bytes of its elements, unchanged, so pages can be
/// joined and one list item picked out without re-encoding what the server sent.
///
/// It only finds element boundaries (tracking strings, escapes and nesting); it does not
/// validate the elements.
public enum JSONArrayElements {
    /// The elements of a JSON array, each trimmed of surrounding white space.
    ///
    /// - Parameter data: a JSON array, e.g. a list response body.
    /// - Returns: the elements' bytes, or `nil` when `data` is not an array.
    public static func split(_ data: Data) -> [Data]? {
        let bytes = [UInt8](data)
        var index = skipSpace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var elements: [Data] = []
        var depth = 0
        var inString = false
        var isEscaped = false
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if isEscaped { isEscaped = false } else if byte == UInt8(ascii: "\\") { isEscaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if depth > 0, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth -= 1
            } else if depth == 0, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                let element = trimmed(bytes, start, index)
                if !element.isEmpty { elements.append(Data(element)) }
                if byte == UInt8(ascii: "]") { return elements }
                start = index + 1
            }
            index += 1
        }
        return nil
    }

    /// One JSON array made of `elements`, joined with commas.
    ///
    /// - Parameter elements: the elements' bytes.
    public static func join(_ elements: [Data]) -> Data {
        var result = Data("[".utf8)
        for (offset, element) in elements.enumerated() {
            if offset > 0 { result.append(contentsOf: Array(",".utf8)) }
            result.append(element)
        }
        result.append(contentsOf: Array("]".utf8))
        return result
    }

    private static func skipSpace(_ bytes: [UInt8], _ start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    private static func trimmed(_ bytes: [UInt8], _ start: Int, _ end: Int) -> ArraySlice<UInt8> {
        var lower = skipSpace(bytes, start)
        var upper = end
        while upper > lower, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[upper - 1]) { upper -= 1 }
        if lower > upper { lower = upper }
        return bytes[lower..<upper]
    }
}
