import Foundation

/// Text as the search compares it: cut into words, each folded (lower case, without accents,
/// `ß` as `ss`, full-width forms as normal ones), so that "zoe" finds Zoë, "goncalves"
/// Gonçalves and "weiss" Weiß. Scripts written without spaces (Chinese, Japanese) are cut into
/// every pair of neighbouring characters, so that any two or more of them in a row are found
/// ("新年" in "农历新年快乐").
///
/// One scan makes what the index stores (``indexed(_:)``), what a query looks for and what a
/// snippet marks (``words(_:)``), so all three agree. It reads Unicode scalars, not
/// characters: a combining accent is a scalar of its own, dropped like the accent of a
/// composed letter.
enum SearchText {
    /// A word of a text: its folded form, and where it stands in the original text, in Unicode
    /// code points (what a snippet's offsets count).
    struct Word: Equatable, Sendable {
        var folded: String
        var start: Int
        var end: Int
        /// Whether it is a pair (or a lone character) of a script written without spaces.
        var isIdeographic: Bool
    }

    /// The words of `text`, in order.
    static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        scan(text) { bytes, start, end, isIdeographic in
            words.append(Word(folded: String(decoding: bytes, as: UTF8.self), start: start, end: end, isIdeographic: isIdeographic))
        }
        return words
    }

    /// The folded words of `text`, separated by spaces: what the index stores.
    static func indexed(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        scan(text) { bytes, _, _, _ in
            if !output.isEmpty { output.append(0x20) }
            output.append(contentsOf: bytes)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The longest word indexed or searched for, in UTF-8 bytes of its folded form.
    static let maxWordBytes = 255

    /// What a scalar is to the scan.
    private enum Kind {
        /// Part of a word, folded to these bytes (none: dropped, as an accent).
        case word([UInt8])
        /// An ideograph, folded to these bytes: paired with its neighbours.
        case ideograph([UInt8])
        /// Between words.
        case separator
    }

    /// Calls `emit` with each word's folded UTF-8 bytes, its start and end in code points, and
    /// whether it is an ideographic pair (or lone ideograph).
    private static func scan(_ text: String, _ emit: (ArraySlice<UInt8>, Int, Int, Bool) -> Void) {
        var word: [UInt8] = []
        var wordStart = 0
        // The run of ideographs: each one's folded bytes and offsets.
        var run: [(bytes: [UInt8], start: Int, end: Int)] = []
        var offset = 0

        func endWord() {
            // A run of letters longer than any word (a hash, encoded data) is not indexed: no one
            // types it, and PostgreSQL refuses lexemes of more than 2,047 bytes.
            if !word.isEmpty, word.count <= maxWordBytes { emit(word[...], wordStart, offset, false) }
            word.removeAll(keepingCapacity: true)
        }
        func endRun() {
            if run.count == 1 {
                emit(run[0].bytes[...], run[0].start, run[0].end, true)
            } else if run.count > 1 {
                for index in run.indices.dropLast() {
                    emit((run[index].bytes + run[index + 1].bytes)[...], run[index].start, run[index + 1].end, true)
                }
            }
            run.removeAll(keepingCapacity: true)
        }

        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                switch byte {
                case 0x30...0x39, 0x61...0x7A:
                    if !run.isEmpty { endRun() }
                    if word.isEmpty { wordStart = offset }
                    word.append(byte)
                case 0x41...0x5A:
                    if !run.isEmpty { endRun() }
                    if word.isEmpty { wordStart = offset }
                    word.append(byte + 0x20)
                default:
                    endWord()
                    endRun()
                }
                continue
            }
            switch kind(of: scalar) {
            case .word(let bytes):
                // An accent alone (after no letter) makes no word.
                guard !bytes.isEmpty || !word.isEmpty else { continue }
                if !run.isEmpty { endRun() }
                if word.isEmpty { wordStart = offset }
                word.append(contentsOf: bytes)
            case .ideograph(let bytes):
                endWord()
                run.append((bytes, offset, offset + 1))
            case .separator:
                endWord()
                endRun()
            }
        }
        endWord()
        endRun()
    }

    /// The kinds of the scalars most text outside ASCII uses (Latin, Greek, Cyrillic, general
    /// punctuation), worked out once.
    private static let commonKinds: [Kind] = (0x80..<0x2070).map { value in
        Unicode.Scalar(value).map(workOutKind) ?? .separator
    }

    private static func kind(of scalar: Unicode.Scalar) -> Kind {
        let value = Int(scalar.value)
        if value < 0x2070 { return commonKinds[value - 0x80] }
        return workOutKind(scalar)
    }

    /// Letters that no accent removal reaches, as people type them without their keyboard's
    /// special keys.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
        "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i",
    ]

    private static func workOutKind(_ scalar: Unicode.Scalar) -> Kind {
        if isIdeographic(scalar) {
            // Kana and unified ideographs fold to themselves; only the compatibility ideographs
            // and half-width Katakana have another form.
            switch scalar.value {
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0x20000...0x2A6DF: return .ideograph(Array(String(scalar).utf8))
            default:
                // An unassigned code point folds to nothing: no word at all.
                let folded = Array(fold(scalar).utf8)
                return folded.isEmpty ? .separator : .ideograph(folded)
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .enclosingMark:
            let folded = Array(fold(scalar).utf8)
            return folded.isEmpty ? .separator : .word(folded)
        case .nonspacingMark:
            return .word([])
        default:
            return .separator
        }
    }

    /// Whether `scalar` belongs to a script written without spaces between words: Han
    /// ideographs, Hiragana and Katakana.
    static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D,  // Hiragana, Katakana, half-width Katakana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F:  // Han
            return true
        default:
            return false
        }
    }

    /// Whether `character` begins with an ideograph (``isIdeographic(_:)-(Unicode.Scalar)``).
    static func isIdeographic(_ character: Character) -> Bool {
        character.unicodeScalars.first.map(isIdeographic) ?? false
    }

    /// One scalar folded: lower case, without accents, in its normal width; only letters,
    /// digits and spacing marks are kept.
    static func fold(_ scalar: Unicode.Scalar) -> String {
        if let spelled = spelledOut[scalar] { return spelled }
        let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        return String(String.UnicodeScalarView(folded.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .enclosingMark:
                true
            default:
                false
            }
        }))
    }
}
