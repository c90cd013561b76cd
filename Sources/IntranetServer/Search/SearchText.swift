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
        forEachWord(in: text) { word in
            words.append(word)
            return true
        }
        return words
    }

    /// Calls `body` with the words of `text`, in order, until it returns `false`.
    static func forEachWord(in text: String, _ body: (Word) -> Bool) {
        scan(text) { bytes, start, end, isIdeographic in
            body(Word(folded: String(decoding: bytes, as: UTF8.self), start: start, end: end, isIdeographic: isIdeographic))
        }
    }

    /// A text's words folded once, so that a snippet can mark a query's words in it without
    /// folding it again: their folded bytes end to end, where each one's bytes end, and where
    /// each stands in the text, in code points.
    struct FoldedWords: Sendable {
        var bytes: [UInt8] = []
        var ends: [UInt32] = []
        var starts: [UInt32] = []
        var stops: [UInt32] = []

        /// How many words.
        var count: Int { ends.count }
        /// About the bytes it holds (its arrays' capacities, which growing leaves larger than
        /// their contents).
        var size: Int { bytes.capacity + (ends.capacity + starts.capacity + stops.capacity) * 4 }
    }

    /// Every word of `text`, folded (``FoldedWords``).
    static func foldedWords(_ text: String) -> FoldedWords {
        var words = FoldedWords()
        scan(text) { bytes, start, end, _ in
            words.bytes.append(contentsOf: bytes)
            words.ends.append(UInt32(words.bytes.count))
            words.starts.append(UInt32(start))
            words.stops.append(UInt32(end))
            return true
        }
        return words
    }

    /// Calls `body` with each word of `text` folded (its UTF-8 bytes), and where it stands in
    /// code points, in order, until it returns `false`: ``forEachWord(in:_:)`` without making
    /// a string of each word.
    static func forEachFoldedWord(in text: String, _ body: (ArraySlice<UInt8>, Int, Int) -> Bool) {
        scan(text) { bytes, start, end, _ in body(bytes, start, end) }
    }

    /// The folded words of `text`, separated by spaces: what the index stores.
    static func indexed(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        scan(text) { bytes, _, _, _ in
            if !output.isEmpty { output.append(0x20) }
            output.append(contentsOf: bytes)
            return true
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
    /// whether it is an ideographic pair (or lone ideograph), until it returns `false`.
    private static func scan(_ text: String, _ emit: (ArraySlice<UInt8>, Int, Int, Bool) -> Bool) {
        var isStopped = false
        var word: [UInt8] = []
        var wordStart = 0
        // The run of ideographs: their folded bytes one after the other, where each one's begin,
        // and each one's offset (kept apart so that pairs are slices, not new arrays).
        var runBytes: [UInt8] = []
        var runStarts: [Int] = []
        var runOffsets: [Int] = []
        var offset = 0

        func endWord() {
            // A run of letters longer than any word (a hash, encoded data) is not indexed: no one
            // types it, and PostgreSQL refuses lexemes of more than 2,047 bytes.
            if !word.isEmpty, word.count <= maxWordBytes, !isStopped, !emit(word[...], wordStart, offset, false) { isStopped = true }
            word.removeAll(keepingCapacity: true)
        }
        func endRun() {
            let count = runStarts.count
            if count == 1 {
                if !isStopped, !emit(runBytes[...], runOffsets[0], runOffsets[0] + 1, true) { isStopped = true }
            } else if count > 1 {
                for index in 0..<(count - 1) where !isStopped {
                    let end = index + 2 < count ? runStarts[index + 2] : runBytes.count
                    if !emit(runBytes[runStarts[index]..<end], runOffsets[index], runOffsets[index + 1] + 1, true) { isStopped = true }
                }
            }
            runBytes.removeAll(keepingCapacity: true)
            runStarts.removeAll(keepingCapacity: true)
            runOffsets.removeAll(keepingCapacity: true)
        }
        func appendToRun(_ bytes: [UInt8]) {
            runStarts.append(runBytes.count)
            runOffsets.append(offset)
            runBytes.append(contentsOf: bytes)
        }

        for scalar in text.unicodeScalars {
            if isStopped { return }
            defer { offset += 1 }
            let value = scalar.value
            if value < 0x80 {
                let byte = UInt8(value)
                switch byte {
                case 0x30...0x39, 0x61...0x7A:
                    if !runStarts.isEmpty { endRun() }
                    if word.isEmpty { wordStart = offset }
                    word.append(byte)
                case 0x41...0x5A:
                    if !runStarts.isEmpty { endRun() }
                    if word.isEmpty { wordStart = offset }
                    word.append(byte + 0x20)
                default:
                    endWord()
                    endRun()
                }
                continue
            }
            switch value {
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0x20000...0x2A6DF:
                // Kana and unified ideographs fold to themselves (as ``workOutKind(_:)`` says),
                // read here without asking.
                endWord()
                runStarts.append(runBytes.count)
                runOffsets.append(offset)
                // Three bytes below U+10000, four above (written out: a generic append of the
                // scalar's UTF-8 view was a tenth of a snippet's cost).
                if value < 0x10000 {
                    runBytes.append(UInt8(0xE0 | (value >> 12)))
                } else {
                    runBytes.append(UInt8(0xF0 | (value >> 18)))
                    runBytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
                }
                runBytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
                runBytes.append(UInt8(0x80 | (value & 0x3F)))
                continue
            default:
                break
            }
            switch kind(of: scalar) {
            case .word(let bytes):
                // An accent alone (after no letter) makes no word.
                guard !bytes.isEmpty || !word.isEmpty else { continue }
                if !runStarts.isEmpty { endRun() }
                if word.isEmpty { wordStart = offset }
                word.append(contentsOf: bytes)
            case .ideograph(let bytes):
                endWord()
                appendToRun(bytes)
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
