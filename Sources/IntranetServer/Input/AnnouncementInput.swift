import IntranetAPI
import IntranetHTML

/// Turns a parsed request body into announcement content, or a 422 naming every bad field
/// (docs/api.md, "Validation"). Keys other than `title`, `body` and `readers` are ignored.
enum AnnouncementInput {
    /// The name used in field errors for the body as a whole.
    static let wholeBody = "$"
    /// Most user ids one announcement's `readers` may list.
    static let maxReaders = 1_000

    /// The content of a `POST` or `PUT`, applied to the current announcement (`nil` for a new
    /// one): `title` is required; an absent `body` means `null`; absent `readers` stay as they
    /// are (everyone, for a new announcement), so clients that predate them never change them.
    static func draft(from json: JSONValue, sanitizer: HTMLSanitizer = .bodies) throws -> @Sendable (StoredAnnouncement?) -> AnnouncementContent {
        let object = try requireObject(json)
        var errors: [Problem.FieldError] = []
        let title = title(object["title"], errors: &errors)
        let body = body(object["body"], sanitizer: sanitizer, errors: &errors)
        let setsReaders = object["readers"] != nil
        let readers = readers(object["readers"], errors: &errors)
        guard errors.isEmpty, let title else { throw APIError.validation(errors) }
        return { current in
            AnnouncementContent(title: title, body: body, readers: setsReaders ? readers : current?.readers)
        }
    }

    /// A JSON Merge Patch (RFC 7396) to apply to the current announcement: absent keys keep
    /// their value, a `null` body clears it, a `null` title is refused.
    ///
    /// The patch is validated before the current value is read, so a bad patch changes nothing.
    static func mergePatch(from json: JSONValue, sanitizer: HTMLSanitizer = .bodies) throws -> @Sendable (StoredAnnouncement) -> AnnouncementContent {
        let object = try requireObject(json)
        var errors: [Problem.FieldError] = []
        let title = object["title"] == nil ? nil : title(object["title"], errors: &errors)
        let setsBody = object["body"] != nil
        let body = body(object["body"], sanitizer: sanitizer, errors: &errors)
        let setsReaders = object["readers"] != nil
        let readers = readers(object["readers"], errors: &errors)
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return { current in
            AnnouncementContent(
                title: title ?? current.title,
                body: setsBody ? body : current.body,
                readers: setsReaders ? readers : current.readers
            )
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
    private static func body(_ value: JSONValue?, sanitizer: HTMLSanitizer, errors: inout [Problem.FieldError]) -> String? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)?:
            if let problem = AnnouncementRules.bodyProblem(text) {
                errors.append(Problem.FieldError(field: "body", message: problem))
                return nil
            }
            // Stored only as the sanitiser writes it, so that a body read back is always safe
            // to put in a web page; escaping may lengthen it, so the limit is checked again.
            let safe = sanitizer.sanitize(text).html
            if let problem = AnnouncementRules.bodyProblem(safe) {
                errors.append(Problem.FieldError(field: "body", message: problem + " once sanitised"))
            }
            return safe
        case let other?:
            errors.append(Problem.FieldError(field: "body", message: "must be a string or null, not \(other.typeName)"))
            return nil
        }
    }

    /// The reader ids, sorted and without repeats (`nil` for absent or `null`: everyone).
    private static func readers(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> [Int]? {
        switch value {
        case nil, .null?:
            return nil
        case .array(let items)?:
            var ids = Set<Int>()
            for item in items {
                guard case .number(let number) = item, number >= 1, number <= Double(Int32.max),
                      number.rounded() == number
                else {
                    errors.append(Problem.FieldError(field: "readers", message: "must be null or a list of user ids"))
                    return nil
                }
                ids.insert(Int(number))
            }
            guard ids.count <= maxReaders else {
                errors.append(Problem.FieldError(field: "readers", message: "must list at most \(maxReaders) users"))
                return nil
            }
            return ids.sorted()
        case let other?:
            errors.append(Problem.FieldError(field: "readers", message: "must be null or a list of user ids, not \(other.typeName)"))
            return nil
        }
    }
}
