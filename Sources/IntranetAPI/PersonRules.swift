import Foundation

/// The validation rules for people's fields, shared by server and client.
public enum PersonRules {
    /// Most code points a name, job title, department or location may have after trimming.
    public static let maxTextCodePoints = 255
    /// Most code points of an e-mail address (RFC 5321's path limit).
    public static let maxEmailCodePoints = 254
    /// Most code points of a phone number.
    public static let maxPhoneCodePoints = 40

    /// The trimmed value the server stores.
    public static func normalized(_ text: String) -> String {
        text.trimmingWhitespace()
    }

    /// The problem with a required text field (name, job title, department), or `nil`.
    public static func textProblem(_ text: String) -> String? {
        let trimmed = normalized(text)
        if trimmed.isEmpty { return "must not be empty or only white space" }
        // The limit counts the value as sent, white space around it included, as the OpenAPI
        // document's `maxLength` does: a value the document refuses is refused here too.
        if text.unicodeScalars.count > maxTextCodePoints { return "must be at most \(maxTextCodePoints) characters" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not contain control characters" }
        return nil
    }

    /// The problem with an e-mail address, or `nil`: one `@`, a local part of at most 64
    /// bytes without spaces, and a domain of dot-separated labels (letters, digits, hyphens,
    /// or any non-ASCII letter) with at least one dot.
    public static func emailProblem(_ email: String) -> String? {
        let trimmed = normalized(email)
        if email.unicodeScalars.count > maxEmailCodePoints { return "must be at most \(maxEmailCodePoints) characters" }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, local.utf8.count <= 64,
              !local.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control || "<>()[]\\,;:\"".unicodeScalars.contains($0) }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { return "must be an e-mail address like name@example.com" }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0 == "-" || ($0.isASCII ? $0.properties.isAlphabetic || ("0"..."9").contains($0) : $0.properties.isAlphabetic || $0.properties.numericType != nil) }
        }) else { return "must be an e-mail address like name@example.com" }
        return nil
    }

    /// The problem with an optional short text (phone, location), or `nil`.
    public static func optionalTextProblem(_ text: String, maxCodePoints: Int) -> String? {
        let trimmed = normalized(text)
        if text.unicodeScalars.count > maxCodePoints { return "must be at most \(maxCodePoints) characters" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not contain control characters" }
        return nil
    }

    /// The problem with a phone number, or `nil`: digits with spaces and `+ - ( ) . /`, and
    /// an extension after `x`.
    public static func phoneProblem(_ phone: String) -> String? {
        let allowed = Set("0123456789 +-()./x")
        guard phone.contains(where: \.isNumber), phone.allSatisfy({ allowed.contains($0) }) else {
            return "must be a phone number: digits, spaces and + - ( ) . / (x before an extension)"
        }
        return nil
    }

    /// The key e-mail addresses are unique under: trimmed, composed (NFC: `é` typed either way
    /// is one letter) and lower-cased.
    public static func emailKey(_ email: String) -> String {
        normalized(email).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Text folded for searching: lower case, without accents (`Zoë Lefèvre` → `zoe lefevre`).
    public static func searchKey(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}
