import IntranetAPI

/// Turns a parsed request body into announcement content, or a 422 naming every bad field
/// (API.md §2, Validation). Keys other than `title` and `body` are ignored.
enum AnnouncementInput {
    /// The name used in field errors for the body as a whole.
    static let wholeBody = "$"

    /// The content of a `POST` or `PUT`: `title` is required; an absent `body` means `null`.
    static func draft(from json: JSONValue) throws -> AnnouncementContent {
        let object = try requireObject(json)
        var errors: [Problem.FieldError] = []
        let title = title(object["title"], errors: &errors)
        let body = body(object["body"], errors: &errors)
        guard errors.isEmpty, let title else { throw APIError.validation(errors) }
        return AnnouncementContent(title: title, body: body)
    }

    /// A JSON Merge Patch (RFC 7396) to apply to the current announcement: absent keys keep
    /// their value, a `null` body clears it, a `null` title is refused.
    ///
    /// The patch is validated before the current value is read, so a bad patch changes nothing.
    static func mergePatch(from json: JSONValue) throws -> @Sendable (StoredAnnouncement) -> AnnouncementContent {
        let object = try requireObject(json)
        var errors: [Problem.FieldError] = []
        let title = object["title"] == nil ? nil : title(object["title"], errors: &errors)
        let setsBody = object["body"] != nil
        let body = body(object["body"], errors: &errors)
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return { current in
            AnnouncementContent(title: title ?? current.title, body: setsBody ? body : current.body)
        }
    }

    private static func requireObject(_ json: JSONValue) throws -> [String: JSONValue] {
        guard case .object(let object) = json else {
            throw APIError.validation([
                Problem.FieldError(field: wholeBody, message: "must be a JSON object, not \(json.typeName)")
            ])
        }
        return object
    }

    /// The trimmed title, or `nil` after recording why it is unusable.
    private static func title(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> String? {
        let problem: String
        switch value {
        case nil:
            problem = "is required"
        case .null?:
            problem = "must not be null"
        case .string(let text)?:
            guard let invalid = AnnouncementRules.titleProblem(text) else {
                return AnnouncementRules.normalizedTitle(text)
            }
            problem = invalid
        case let other?:
            problem = "must be a string, not \(other.typeName)"
        }
        errors.append(Problem.FieldError(field: "title", message: problem))
        return nil
    }

    /// The body (`nil` for absent or `null`), recording why it is unusable when it is.
    private static func body(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> String? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)?:
            if let problem = AnnouncementRules.bodyProblem(text) {
                errors.append(Problem.FieldError(field: "body", message: problem))
            }
            return text
        case let other?:
            errors.append(Problem.FieldError(field: "body", message: "must be a string or null, not \(other.typeName)"))
            return nil
        }
    }
}
