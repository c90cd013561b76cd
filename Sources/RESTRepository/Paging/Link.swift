/// One link of an RFC 8288 `Link` header.
public struct Link: Sendable, Equatable {
    /// The target URI reference, as sent (often relative, e.g. `/items?page=2`).
    public var target: String
    /// The relation types, lower-cased (`rel="next last"` gives two).
    public var relations: [String]
    /// The other parameters, names lower-cased, quotes removed.
    public var parameters: [String: String]

    /// Creates a link.
    public init(target: String, relations: [String], parameters: [String: String] = [:]) {
        self.target = target
        self.relations = relations
        self.parameters = parameters
    }
}
