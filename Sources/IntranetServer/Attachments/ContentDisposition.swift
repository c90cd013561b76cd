import Foundation

/// `Content-Disposition` (RFC 6266), as an upload names its file and a download offers it.
struct ContentDisposition: Sendable, Equatable {
    /// `attachment`, `inline` or (in a multipart body) `form-data`, lowercased.
    var type: String
    /// The parameters, names lowercased; `filename*` already decoded (RFC 8187) into
    /// `filename*`.
    var parameters: [String: String]

    /// The file name: `filename*` when given and decodable, else `filename`.
    var fileName: String? { parameters["filename*"] ?? parameters["filename"] }

    /// Parses a header value; `nil` when it is not one. In a multipart body's part headers
    /// (`backslashEscapes` false), a backslash in a quoted value is itself, as browsers send
    /// it (HTML's form encoding escapes quotes and line ends as `%22`, `%0D`, `%0A` instead).
    init?(_ value: String, backslashEscapes: Bool = true) {
        var scanner = Substring(value)
        guard let type = Self.token(&scanner), !type.isEmpty else { return nil }
        self.type = type.lowercased()
        parameters = [:]
        while true {
            Self.skipSpaces(&scanner)
            if scanner.isEmpty { break }
            guard scanner.first == ";" else { return nil }
            scanner.removeFirst()
            Self.skipSpaces(&scanner)
            if scanner.isEmpty { break }
            guard let name = Self.token(&scanner)?.lowercased(), !name.isEmpty else { return nil }
            Self.skipSpaces(&scanner)
            guard scanner.first == "=" else { return nil }
            scanner.removeFirst()
            Self.skipSpaces(&scanner)
            let raw: String
            if scanner.first == "\"" {
                guard let quoted = Self.quoted(&scanner, backslashEscapes: backslashEscapes) else { return nil }
                raw = quoted
            } else {
                guard let token = Self.token(&scanner, extended: true) else { return nil }
                raw = token
            }
            if name.hasSuffix("*") {
                if let decoded = Self.extendedValue(raw) { parameters[name] = decoded }
            } else {
                parameters[name] = raw
            }
        }
    }

    /// The header value offering `name` for download (`attachment`) or display (`inline`):
    /// an ASCII `filename` for old clients and `filename*` in UTF-8 for the rest.
    static func header(type: String, fileName name: String) -> String {
        let ascii = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F ? Character(scalar) : "_"
        })
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&+-.^_`|~")
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii
        return "\(type); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    private static func skipSpaces(_ scanner: inout Substring) {
        while let first = scanner.first, first == " " || first == "\t" { scanner.removeFirst() }
    }

    /// An RFC 9110 token (with `extended`, also `%` and `'`, which an RFC 8187 value holds).
    private static func token(_ scanner: inout Substring, extended: Bool = false) -> String? {
        let separators: Set<Character> = ["(", ")", "<", ">", "@", ",", ";", ":", "\\", "\"", "/", "[", "]", "?", "=", "{", "}", " ", "\t"]
        let end = scanner.firstIndex { character in
            guard character.isASCII, let value = character.asciiValue, value > 0x20, value != 0x7F else { return true }
            return separators.contains(character) && !(extended && (character == "/" || character == "?"))
        } ?? scanner.endIndex
        let token = String(scanner[..<end])
        scanner = scanner[end...]
        return token
    }

    /// A quoted string, its escapes undone; `nil` when it does not end.
    private static func quoted(_ scanner: inout Substring, backslashEscapes: Bool) -> String? {
        scanner.removeFirst()
        var value = ""
        while let character = scanner.first {
            scanner.removeFirst()
            switch character {
            case "\"": return value
            case "\\" where backslashEscapes:
                guard let escaped = scanner.first else { return nil }
                scanner.removeFirst()
                value.append(escaped)
            default: value.append(character)
            }
        }
        return nil
    }

    /// An RFC 8187 value (`UTF-8''%e2%82%ac%20rates`): `nil` when not UTF-8 or not decodable.
    private static func extendedValue(_ raw: String) -> String? {
        let parts = raw.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
        return String(parts[2]).removingPercentEncoding
    }
}

/// The checks every attachment's file name passes.
enum AttachmentName {
    /// Most characters in a file name.
    static let maxLength = 255

    /// `name` made a plain file name: only its last path component (a browser may send a whole
    /// path), trimmed.
    ///
    /// - Throws: ``APIError`` 422 when empty, too long, or holding control characters.
    static func checked(_ name: String, field: String = "name") throws -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed != ".", trimmed != ".." else {
            throw APIError.validation([.init(field: field, message: "must name a file")])
        }
        guard trimmed.count <= maxLength else {
            throw APIError.validation([.init(field: field, message: "must be at most \(maxLength) characters")])
        }
        // Control characters, and the direction overrides that make "gpj.exe" read "exe.jpg".
        let forbidden: (Unicode.Scalar) -> Bool = {
            $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
        guard !trimmed.unicodeScalars.contains(where: forbidden) else {
            throw APIError.validation([.init(field: field, message: "must not contain control characters")])
        }
        return trimmed
    }
}
