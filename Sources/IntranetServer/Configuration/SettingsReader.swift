/// Reads settings by name from one source (the environment), every one the same way: a setting
/// that is absent or empty leaves the default; one that is present must parse, or a
/// ``ConfigurationError`` names it, says what it must be and quotes (the start of) what it was.
/// A flag is `true` or `false` in any case, and `1`/`0` and `yes`/`no` too, for every flag.
struct SettingsReader {
    let values: [String: String]

    /// The setting's text, when present and not empty.
    func text(_ name: String) -> String? {
        values[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A whole number in `range`; `what` names it in the error ("a port number", "bytes").
    func integer(_ name: String, in range: ClosedRange<Int>, _ what: String) throws -> Int? {
        try parsed(name, "must be a whole number of \(what) from \(range.lowerBound) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A number (fractions allowed) in `range`.
    func number(_ name: String, in range: ClosedRange<Double>, _ what: String) throws -> Double? {
        try parsed(name, "must be a number of \(what) from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))") { text in
            Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
    }

    /// `true` or `false` (also `1`/`0`, `yes`/`no`), in any case.
    func flag(_ name: String) throws -> Bool? {
        try parsed(name, "must be true or false") { text in
            switch text.lowercased() {
            case "true", "1", "yes": true
            case "false", "0", "no": false
            default: nil
            }
        }
    }

    /// One of `choices` by name, in any case.
    func choice<Value>(_ name: String, _ choices: KeyValuePairs<String, Value>) throws -> Value? {
        let names = choices.map(\.key)
        let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        return try parsed(name, "must be \(list)") { text in
            choices.first { $0.key == text.lowercased() }?.value
        }
    }

    /// The setting read by `parse`, which returns `nil` for a value it refuses: the error then
    /// says `requirement`, and quotes at most 40 characters of the value unless it is `secret`
    /// (a token is never repeated, not even in an error).
    func parsed<Value>(_ name: String, _ requirement: String, secret: Bool = false, _ parse: (String) throws -> Value?) throws -> Value? {
        guard let text = text(name) else { return nil }
        guard let value = try parse(text) else {
            throw ConfigurationError(variable: name, message: secret ? requirement : "\(requirement), not '\(text.prefix(40))'")
        }
        return value
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number ? String(Int(number)) : String(number)
    }
}
