/// The one rule for the `{id}` of a path, for every route of the API and the web front end: a
/// positive integer written in decimal digits only (no sign, no spaces, at most 18 digits), so
/// `/people/3`, never `/people/+3`, `/people/03x` or `/people/99999999999999999999`. An
/// announcement's may end in `.json` (`/announcements/7.json`). Anything else names nothing: a
/// 404 with the route's own message.
enum PathID {
    /// The most digits an id may have: every 18-digit number fits in an `Int`.
    static let maxDigits = 18

    /// The `{id}` parameter of `context`'s path.
    ///
    /// - Parameters:
    ///   - context: the request's context.
    ///   - suffix: a suffix the id may carry, dropped before it is read.
    ///   - notFound: the 404's detail.
    /// - Throws: ``APIError`` 404 with `notFound` for anything but such an id.
    static func parse(_ context: AppRequestContext, allowingSuffix suffix: String? = nil, notFound: String) throws -> Int {
        try parse(context.parameters.get("id") ?? "", allowingSuffix: suffix, notFound: notFound)
    }

    /// Reads `text` as a path id (see ``parse(_:allowingSuffix:notFound:)``).
    static func parse(_ text: String, allowingSuffix suffix: String? = nil, notFound: String) throws -> Int {
        var digits = Substring(text)
        if let suffix, digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count) }
        guard !digits.isEmpty, digits.utf8.count <= maxDigits,
            digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let id = Int(digits), id > 0
        else { throw APIError.notFound(notFound) }
        return id
    }
}
