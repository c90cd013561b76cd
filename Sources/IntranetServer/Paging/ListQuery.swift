import Foundation

/// The query string of `GET /announcements`, validated (docs/api.md, "Paging and order").
///
/// Parsing never falls back silently: a value that is not a whole number, out of range, given
/// twice, or a mix of the `max`/`offset` and `page`/`per_page` styles is a 400 naming the
/// parameter. Parameters the API does not define are kept, so paging links carry them on.
struct ListQuery: Sendable, Equatable {
    enum Style: Sendable, Equatable {
        /// `max` and `offset`.
        case offset
        /// `page` and `per_page` (the Grape style).
        case page
    }

    static let defaultLimit = 10
    static let maxLimit = 100
    static let maxNumber = Int(Int32.max)

    var request = ListRequest()
    var style = Style.offset
    /// Every parameter as sent (still percent-encoded), in order, paging ones included.
    var rawParameters: [(name: String, value: String)] = []
    /// The `sort` value as sent, when the caller parses with its own sort keys.
    var sortName: String?
    /// The decoded values of the caller's own parameters (`q`, `expand`), each given once.
    var extra: [String: String] = [:]

    static func == (lhs: ListQuery, rhs: ListQuery) -> Bool {
        lhs.request == rhs.request && lhs.style == rhs.style && lhs.sortName == rhs.sortName && lhs.extra == rhs.extra
            && lhs.rawParameters.elementsEqual(rhs.rawParameters, by: { $0 == $1 })
    }

    /// Whether `pending=true` asks for the posts waiting for the reader's acknowledgement.
    var isPending: Bool { extra["pending"] == "true" }

    /// The 1-based page this slice starts on.
    var page: Int { request.offset / request.limit + 1 }

    /// Parses a raw (percent-encoded) query string of a list other than announcements: `sort`
    /// must be one of `sorts` (the first is the default), and `extraNames` are the list's own
    /// parameters, each allowed once.
    ///
    /// - Throws: ``APIError`` 400 naming the offending parameter.
    static func parse(_ rawQuery: String, sorts: [String], extraNames: Set<String>) throws -> ListQuery {
        var query = try parse(rawQuery, sorts: sorts, extraNames: extraNames, announcements: false)
        query.sortName = query.sortName ?? sorts.first
        return query
    }

    /// Parses a raw (percent-encoded) query string of `GET /announcements`, with its `status`
    /// (``ListRequest/Listing``; whether the caller may list it is the caller's to check).
    ///
    /// - Throws: ``APIError`` 400 naming the offending parameter.
    static func parse(_ rawQuery: String) throws -> ListQuery {
        var query = try parse(rawQuery, sorts: ListRequest.SortKey.allCases.map(\.rawValue), extraNames: ["status", "pending"], announcements: true)
        if let pending = query.extra["pending"], pending != "true", pending != "false" {
            throw APIError.badRequest("Query parameter 'pending' must be true or false.")
        }
        if let status = query.extra["status"] {
            guard let listing = ListRequest.Listing(rawValue: status), listing != .live else {
                throw APIError.badRequest("Query parameter 'status' must be draft, scheduled or expired.")
            }
            query.request.listing = listing
        }
        return query
    }

    private static func parse(_ rawQuery: String, sorts: [String], extraNames: Set<String>, announcements: Bool) throws -> ListQuery {
        var query = ListQuery()
        var values: [String: String] = [:]
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let rawValue = parts.count > 1 ? String(parts[1]) : ""
            query.rawParameters.append((rawName, rawValue))
            let name = decode(rawName)
            guard knownNames.contains(name) || extraNames.contains(name) else { continue }
            guard values[name] == nil else { throw APIError.badRequest("Query parameter '\(name)' is given more than once.") }
            values[name] = decode(rawValue)
        }
        for name in extraNames {
            query.extra[name] = values.removeValue(forKey: name)
        }
        if !announcements, let sort = values.removeValue(forKey: "sort") {
            guard sorts.contains(sort) else {
                throw APIError.badRequest("Query parameter 'sort' must be one of \(sorts.joined(separator: ", ")).")
            }
            query.sortName = sort
        }
        try query.apply(values)
        return query
    }

    private static let knownNames: Set<String> = ["max", "offset", "page", "per_page", "sort", "order"]

    private mutating func apply(_ values: [String: String]) throws {
        let usesOffset = values["max"] != nil || values["offset"] != nil
        let usesPage = values["page"] != nil || values["per_page"] != nil
        if usesOffset, usesPage {
            throw APIError.badRequest("Use either max/offset or page/per_page, not both.")
        }
        if let sort = values["sort"] {
            guard let key = ListRequest.SortKey(rawValue: sort) else {
                let allowed = ListRequest.SortKey.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.badRequest("Query parameter 'sort' must be one of \(allowed).")
            }
            request.sort = key
        }
        if let order = values["order"] {
            guard order == "asc" || order == "desc" else {
                throw APIError.badRequest("Query parameter 'order' must be asc or desc.")
            }
            request.isDescending = order == "desc"
        }
        if usesPage {
            style = .page
            let perPage = try Self.number(values["per_page"], named: "per_page", minimum: 1) ?? Self.defaultLimit
            let page = try Self.number(values["page"], named: "page", minimum: 1) ?? 1
            request.limit = min(perPage, Self.maxLimit)
            request.offset = (page - 1) * request.limit
        } else {
            let limit = try Self.number(values["max"], named: "max", minimum: 1) ?? Self.defaultLimit
            request.limit = min(limit, Self.maxLimit)
            request.offset = try Self.number(values["offset"], named: "offset", minimum: 0) ?? 0
        }
    }

    private static func number(_ text: String?, named name: String, minimum: Int) throws -> Int? {
        guard let text else { return nil }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw APIError.badRequest("Query parameter '\(name)' must be a whole number, not '\(text.prefix(40))'.")
        }
        guard let value = Int(text), value >= minimum, value <= maxNumber else {
            throw APIError.badRequest("Query parameter '\(name)' must be between \(minimum) and \(maxNumber).")
        }
        return value
    }

    /// The percent-decoded values of every parameter `name` of a raw query string, in order.
    static func values(named name: String, in rawQuery: String?) -> [String] {
        guard let rawQuery else { return [] }
        return rawQuery.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard decode(parts[0]) == name else { return nil }
            return parts.count > 1 ? decode(parts[1]) : ""
        }
    }

    /// Percent-decodes a query component (`+` is a space in form encoding).
    static func decode(_ component: some StringProtocol) -> String {
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
