/// Keeps only chosen properties of chosen classes while encoding, like spearal-java's
/// `PropertyFilter` and the `Spearal-PropertyFilter` HTTP header.
///
/// Classes are named by their remote (wire) name. A class without an entry sends all its
/// properties. Properties marked *unfilterable* (ids, versions) are kept even when not
/// listed. Filtered beans arrive as partial objects.
///
/// ```swift
/// var filter = SpearalPropertyFilter()
/// filter.keep(["title"], of: "Announcement")
/// filter.markUnfilterable(["id"], of: "Announcement")
/// filter.headerValues   // ["Announcement#title"]
/// ```
public struct SpearalPropertyFilter: Hashable, Sendable {
    /// The HTTP header carrying one filter value per class: `Spearal-PropertyFilter`.
    public static let headerName = "Spearal-PropertyFilter"

    /// The kept property names by remote class name.
    public private(set) var keptProperties: [String: Set<String>] = [:]
    /// The always-kept property names by remote class name.
    public private(set) var unfilterableProperties: [String: Set<String>] = [:]

    /// Creates an empty filter, which keeps everything.
    public init() {}

    /// Creates a filter from `Spearal-PropertyFilter` header values, one per class.
    /// - Parameter headerValues: values such as `org.example.Person#id,name`.
    /// - Throws: ``SpearalError/invalidPropertyFilter(_:)`` for a value without `#` or class name.
    public init(headerValues: [String]) throws(SpearalError) {
        for value in headerValues {
            let (className, properties) = try Self.parseHeaderValue(value)
            keep(properties, of: className)
        }
    }

    /// Keeps only `properties` (plus the unfilterable ones) when encoding beans of `className`.
    ///
    /// Calling it again for the same class adds to the kept set.
    /// - Parameters:
    ///   - properties: the property names to send.
    ///   - className: the remote class name.
    public mutating func keep(_ properties: [String], of className: String) {
        keptProperties[className, default: []].formUnion(properties)
    }

    /// Marks `properties` of `className` as always sent, whatever the filter lists.
    /// - Parameters:
    ///   - properties: the property names, such as `id` and `version`.
    ///   - className: the remote class name.
    public mutating func markUnfilterable(_ properties: [String], of className: String) {
        unfilterableProperties[className, default: []].formUnion(properties)
    }

    /// The header values for this filter, one per class, sorted by class name.
    ///
    /// Send each as its own `Spearal-PropertyFilter` header line: values contain commas, so a
    /// comma-joined header can only be split by a reader that knows a `#` starts each class
    /// (the intranet server does; not every server may).
    public var headerValues: [String] {
        keptProperties.keys.sorted().map { className in
            Self.formatHeaderValue(className: className, properties: (keptProperties[className] ?? []).sorted())
        }
    }

    /// Formats one header value: `className#prop,prop`.
    /// - Parameters:
    ///   - className: the remote class name.
    ///   - properties: the property names to keep.
    public static func formatHeaderValue(className: String, properties: [String]) -> String {
        className + "#" + properties.joined(separator: ",")
    }

    /// Parses one header value `className#prop,prop`, trimming spaces around names.
    /// - Parameter value: the header value.
    /// - Returns: the class name and the property names (empty names dropped).
    /// - Throws: ``SpearalError/invalidPropertyFilter(_:)`` when `#` or the class name is missing.
    public static func parseHeaderValue(_ value: String) throws(SpearalError) -> (className: String, properties: [String]) {
        guard let hash = value.firstIndex(of: "#") else { throw .invalidPropertyFilter(value) }
        let className = value[..<hash].trimmingSpaces()
        guard !className.isEmpty else { throw .invalidPropertyFilter(value) }
        let properties = value[value.index(after: hash)...]
            .split(separator: ",")
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
        return (className, properties)
    }

    /// The property names kept for `className` (listed plus unfilterable), or `nil` when all are kept.
    func keptNames(of className: String) -> Set<String>? {
        guard !keptProperties.isEmpty, let kept = keptProperties[className] else { return nil }
        return kept.union(unfilterableProperties[className] ?? [])
    }

    /// The properties of `bean` that this filter lets through, in the bean's order.
    func keptProperties(of bean: SpearalBean) -> [SpearalBean.Property] {
        guard !keptProperties.isEmpty, let kept = keptProperties[bean.className] else { return bean.properties }
        let unfilterable = unfilterableProperties[bean.className] ?? []
        return bean.properties.filter { kept.contains($0.name) || unfilterable.contains($0.name) }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
