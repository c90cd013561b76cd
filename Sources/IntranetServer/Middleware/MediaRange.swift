/// One entry of an `Accept` header, e.g. `application/json;v=1.0;q=0.5`.
struct MediaRange: Equatable {
    var type: String
    var subtype: String
    var parameters: [String: String]

    /// The quality the client gave this range (`q`): 1 when absent or unreadable, and kept
    /// within 0…1 (RFC 9110 §12.4.2), so `q=2` cannot outrank a plain range.
    var quality: Double {
        guard let text = parameters["q"], let value = Double(text), value.isFinite else { return 1 }
        return min(max(value, 0), 1)
    }

    /// Whether this range admits the media type `type/subtype`.
    func admits(type: String, subtype: String) -> Bool {
        (self.type == "*" || self.type == type) && (self.subtype == "*" || self.subtype == subtype)
    }

    /// Parses a whole `Accept` header value; entries that are not `type/subtype` are skipped.
    static func parseList(_ header: String) -> [MediaRange] {
        header.split(separator: ",").compactMap { parse(Substring($0)) }
    }

    private static func parse(_ text: Substring) -> MediaRange? {
        var parts = text.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let mediaType = parts.next() else { return nil }
        let names = mediaType.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == 2 else { return nil }
        let type = names[0].trimmed().lowercased()
        let subtype = names[1].trimmed().lowercased()
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
        var parameters: [String: String] = [:]
        while let parameter = parts.next() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmed().lowercased()
            var value = parameter[parameter.index(after: equals)...].trimmed()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            parameters[name] = value
        }
        return MediaRange(type: type, subtype: subtype, parameters: parameters)
    }
}

extension Substring {
    func trimmed() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
