/// An RFC 9457 problem details body (`application/problem+json`), as many REST servers send
/// with their errors.
///
/// Every member is optional when decoding, so a server that sends only some of them still
/// yields a value. Servers that extend the format can be read with
/// ``ResponseDetails/decodeProblem(as:decoder:)``.
public struct ProblemDetails: Codable, Sendable, Equatable {
    /// One invalid field of a rejected request body, the common `errors` extension.
    public struct FieldError: Codable, Sendable, Equatable {
        /// The name of the field, e.g. `title`.
        public var field: String
        /// What is wrong with it, for people.
        public var message: String

        /// Creates a field error.
        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// A URI naming the kind of problem; `about:blank` when the server sent none.
    public var type: String
    /// A short summary of the kind of problem.
    public var title: String?
    /// The HTTP status the server reported in the body.
    public var status: Int?
    /// What went wrong this time, for people.
    public var detail: String?
    /// A URI naming this occurrence.
    public var instance: String?
    /// The invalid fields, usually with 422.
    public var errors: [FieldError]?

    /// Creates a problem body.
    public init(
        type: String = "about:blank",
        title: String? = nil,
        status: Int? = nil,
        detail: String? = nil,
        instance: String? = nil,
        errors: [FieldError]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.errors = errors
    }

    private enum CodingKeys: String, CodingKey { case type, title, status, detail, instance, errors }

    /// Decodes a problem, tolerating any missing member.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        instance = try container.decodeIfPresent(String.self, forKey: .instance)
        errors = try container.decodeIfPresent([FieldError].self, forKey: .errors)
    }
}
