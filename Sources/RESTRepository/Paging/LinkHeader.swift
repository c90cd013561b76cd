import Foundation
/// Parses RFC 8288 `Link` header values.
///
/// Lenient by design: a malformed link is skipped, never a crash; commas and semicolons
/// inside `<…>` or quoted strings do not split.
public enum LinkHeader {
    /// The links of one `Link` field value.
    ///
    /// - Parameter value: e.g. `</items?page=2>; rel="next", </items?page=9>; rel="last"`.
    public static func parse(_ value: String) -> [Link] {
        split(value, on: ",").compactMap(parseLink)
    }

    private static func parseLink(_ text: String) -> Link? {
        let parts = split(text, on: ";")
        guard let reference = parts.first?.trimmingCharacters(in: .whitespaces),
              reference.hasPrefix("<"), reference.hasSuffix(">"), reference.count >= 2
        else { return nil }
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let name = pair.first?.lowercased(), !name.isEmpty else { continue }
            let raw = pair.count > 1 ? pair[1] : ""
            // RFC 8288: only the first occurrence of a parameter counts.
            if parameters[name] == nil {
                parameters[name] = unquote(raw)
            }
        }
        let relations = (parameters["rel"] ?? "")
            .lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "\t" })
            .map(String.init)
        return Link(
            target: String(reference.dropFirst().dropLast()),
            relations: relations,
            parameters: parameters)
    }

    private static func unquote(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
    }

    /// Splits on `separator` outside `<…>` and quoted strings.
    private static func split(_ text: String, on separator: Character) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inAngle = false
        var inQuote = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if inQuote && character == "\\" {
                escaped = true
            } else if character == "\"" && !inAngle {
                inQuote.toggle()
            } else if character == "<" && !inQuote {
                inAngle = true
            } else if character == ">" && !inQuote {
                inAngle = false
            } else if character == separator && !inAngle && !inQuote {
                pieces.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        pieces.append(current)
        return pieces.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
