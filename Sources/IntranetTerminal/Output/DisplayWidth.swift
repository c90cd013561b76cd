/// How many terminal columns text takes: East Asian wide characters and emoji take two,
/// combining marks and control characters none, everything else one.
public enum DisplayWidth {
    /// The columns `text` takes on a terminal.
    ///
    /// - Parameter text: text without escape sequences.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (grapheme cluster) takes.
    ///
    /// - Parameter character: the character.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }) {
            return 2
        }
        return of(first)
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
        0x20000...0x3FFFD,
    ]

    /// `text` cut to at most `width` columns, ending in `…` when something was cut.
    ///
    /// - Parameters:
    ///   - text: the text to fit.
    ///   - width: the columns available (at least 1).
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next + 1 > width { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// `text` followed by spaces up to `width` columns.
    static func padded(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}
