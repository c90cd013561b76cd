/// An RFC 9457 problem details body: the shape of every error the API returns.
public struct Problem: Codable, Sendable, Equatable, Error {
    /// One invalid field of a rejected request body (for 422 answers).
    public struct FieldError: Codable, Sendable, Equatable {
        /// The JSON key of the field, e.g. `title`.
        public var field: String
        /// What is wrong with it, for people.
        public var message: String

        /// Creates a field error.
        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// A URI naming the kind of problem (`about:blank` when only the status matters).
    public var type: String
    /// A short summary of the kind of problem, the same for every occurrence.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What went wrong this time, for people.
    public var detail: String?
    /// The invalid fields, for 422 answers.
    public var errors: [FieldError]?
    /// The versions the server answers, for 406 answers.
    public var supportedVersions: [String]?

    /// Creates a problem body.
    public init(
        type: String = "about:blank",
        title: String,
        status: Int,
        detail: String? = nil,
        errors: [FieldError]? = nil,
        supportedVersions: [String]? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.errors = errors
        self.supportedVersions = supportedVersions
    }
}
