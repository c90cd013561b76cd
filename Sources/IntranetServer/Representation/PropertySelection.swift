import Foundation
import IntranetAPI
import Spearal

/// The properties a request asks for, per wire class: `Spearal-PropertyFilter` header lines
/// (`intranet.Announcement#title,createdAt`, one per class) and the JSON twin, the query
/// parameter `fields=title,createdAt`, which names properties of the route's own class.
///
/// Both work in both formats; they add up. A class no one names keeps all its properties; a
/// named class keeps the named ones plus its id. Names are checked against the classes and
/// properties of the negotiated API version, so a typo is a 400 naming it rather than an
/// answer silently missing what the client wanted.
struct PropertySelection: Sendable, Hashable {
    /// Longest `fields` value or filter header considered; longer ones are refused.
    static let maxLength = 4_096

    /// The kept properties by class, without the always-kept ones; an absent class keeps all.
    private(set) var kept: [WireClass: Set<String>] = [:]
    /// The version whose properties the names were checked against.
    private var version = APIVersion.latest

    /// Keeps every property of every class.
    static let everything = PropertySelection()

    /// Whether nothing is left out.
    var isEverything: Bool { kept.isEmpty }

    /// The selection a request asks for.
    ///
    /// - Parameters:
    ///   - headerValues: the `Spearal-PropertyFilter` header lines (a proxy may have joined
    ///     them with commas: a token holding `#` starts the next class); empty lines are ignored.
    ///   - rawQuery: the request's query string, for `fields`.
    ///   - primary: the class `fields` names properties of.
    ///   - version: the negotiated version, whose properties are the valid names.
    /// - Throws: ``APIError`` 400 naming the malformed value, unknown class or unknown property.
    init(headerValues: [String], rawQuery: String?, primary: WireClass, version: APIVersion) throws {
        self.version = version
        // Empty list items are ignored (RFC 9110, 5.6.1): a line of none selects nothing.
        for value in headerValues where !value.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "," }) {
            try add(headerValue: value, version: version)
        }
        for fields in Self.fieldsValues(in: rawQuery) {
            guard fields.utf8.count <= Self.maxLength else {
                throw APIError.badRequest("Query parameter 'fields' is longer than \(Self.maxLength) bytes.")
            }
            let names = fields.split(separator: ",").map { $0.trimmed() }.filter { !$0.isEmpty }
            try keep(names, of: primary, version: version, source: "Query parameter 'fields'")
        }
    }

    private init() {}

    private mutating func add(headerValue: String, version: APIVersion) throws {
        let source = "The \(HeaderName.spearalPropertyFilter) header"
        guard headerValue.utf8.count <= Self.maxLength else {
            throw APIError.badRequest("\(source) is longer than \(Self.maxLength) bytes.")
        }
        var current: (wireClass: WireClass, names: [String])?
        for token in headerValue.split(separator: ",") {
            if let hash = token.firstIndex(of: "#") {
                if let (wireClass, names) = current { try keep(names, of: wireClass, version: version, source: source) }
                let className = token[..<hash].trimmed()
                guard let wireClass = WireClass(rawValue: className) else {
                    let known = WireClass.allCases.map(\.rawValue).joined(separator: ", ")
                    throw APIError.badRequest("\(source) names the unknown class \"\(className.prefix(80))\"; the classes are \(known).")
                }
                let first = token[token.index(after: hash)...].trimmed()
                current = (wireClass, first.isEmpty ? [] : [first])
            } else {
                let name = token.trimmed()
                guard !name.isEmpty else { continue }  // an empty list item
                guard current != nil else {
                    throw APIError.badRequest(
                        "\(source) value \"\(headerValue.prefix(80))\" is not class#property,property (for example \(WireClass.announcement.rawValue)#title).")
                }
                current?.names.append(name)
            }
        }
        guard let (wireClass, names) = current else {
            throw APIError.badRequest(
                "\(source) value \"\(headerValue.prefix(80))\" is not class#property,property (for example \(WireClass.announcement.rawValue)#title).")
        }
        try keep(names, of: wireClass, version: version, source: source)
    }

    private mutating func keep(_ names: [String], of wireClass: WireClass, version: APIVersion, source: String) throws {
        let known = wireClass.properties(in: version)
        guard !names.isEmpty else {
            throw APIError.badRequest(
                "\(source) names no property of \(wireClass.rawValue); name at least one (\(known.joined(separator: ", "))).")
        }
        for name in names where !known.contains(name) {
            throw APIError.badRequest(
                "\(source) names \"\(name.prefix(80))\", which \(wireClass.rawValue) does not have in API version \(version.rawValue); it has \(known.joined(separator: ", ")).")
        }
        kept[wireClass, default: []].formUnion(names.filter { !wireClass.unfilterableProperties.contains($0) })
    }

    /// The property names kept of `className`, always-kept ones included; `nil` keeps all.
    func keptProperties(ofClassNamed className: String) -> Set<String>? {
        guard !kept.isEmpty, let wireClass = WireClass(rawValue: className), let names = kept[wireClass] else { return nil }
        return names.union(wireClass.unfilterableProperties).union(names.flatMap(wireClass.companions(of:)))
    }

    /// The same selection as a Spearal encoder's filter.
    var spearalFilter: SpearalPropertyFilter {
        var filter = SpearalPropertyFilter()
        for (wireClass, names) in kept {
            filter.keep(names.union(names.flatMap(wireClass.companions(of:))).sorted(), of: wireClass.rawValue)
            filter.markUnfilterable(wireClass.unfilterableProperties, of: wireClass.rawValue)
        }
        return filter
    }

    /// One text per selection, equal for equal selections however they were asked for: the
    /// classes in name order, each with its sorted properties (`class#a,b;class#c`).
    var canonical: String {
        kept.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { $0.key.rawValue + "#" + $0.value.sorted().joined(separator: ",") }
            .joined(separator: ";")
    }

    /// A tag naming this selection exactly inside an `ETag` (no dots or quotes): per selected
    /// class in name order, its index among the wire classes and a hex mask of its kept
    /// properties among the version's, e.g. `0x1a` (no two selections share one).
    var tag: String {
        kept.sorted { $0.key.rawValue < $1.key.rawValue }.map { wireClass, names in
            let properties = wireClass.properties(in: version)
            var mask: UInt64 = 0
            for (bit, property) in properties.enumerated() where names.contains(property) {
                mask |= 1 << UInt64(bit)
            }
            let index = WireClass.allCases.firstIndex(of: wireClass) ?? 0
            return "\(index)x" + String(mask, radix: 16)
        }.joined(separator: "_")
    }

    /// The percent-decoded values of every `fields` parameter of a raw query string.
    private static func fieldsValues(in rawQuery: String?) -> [String] {
        ListQuery.values(named: "fields", in: rawQuery)
    }
}
