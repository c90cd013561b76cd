/// An announcement as a list carries it: under 1.0 with its body, under 2.0 only id and title.
public struct AnnouncementSummary: Decodable, Sendable, Equatable, Identifiable {
    /// The server-assigned id.
    public var id: Int
    /// The headline.
    public var title: String
    /// The body when the list carried it (`nil` also for an announcement without body).
    public var body: String?
    /// Whether the list carried the body (a `body` key, even `null`), so opening the
    /// announcement needs no request.
    public var isBodyIncluded: Bool

    /// Creates a list item.
    public init(id: Int, title: String, body: String? = nil, isBodyIncluded: Bool = false) {
        self.id = id
        self.title = title
        self.body = body
        self.isBodyIncluded = isBodyIncluded
    }

    private enum CodingKeys: String, CodingKey { case id, title, body }

    /// Decodes a list item of any version, noting whether `body` was present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        isBodyIncluded = container.contains(.body)
        body = try container.decodeIfPresent(String.self, forKey: .body)
    }
}
