import Foundation
import IntranetAPI
import IntranetHTML

/// Turns a parsed request body into announcement content, or a 422 naming every bad field
/// (docs/api.md, "Validation"). Keys other than `title`, `body`, `readers` and the publishing
/// properties (`status`, `publishAt`, `expiresAt`, `pinned`, `pinnedUntil`, `important`,
/// `audience`, `acknowledgement`) are ignored.
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
        let markdown = markdown(object, errors: &errors)
        let body = markdown.map { rendered($0, sanitizer: sanitizer, errors: &errors) } ?? body(object["body"], sanitizer: sanitizer, errors: &errors)
        let setsReaders = object["readers"] != nil
        let readers = readers(object["readers"], errors: &errors)
        let publishing = PublishingInput(object, errors: &errors)
        let acknowledgement = AcknowledgementInput(object, errors: &errors)
        guard errors.isEmpty, let title else { throw APIError.validation(errors) }
        try checkWindow(publishing.applied(to: AnnouncementV3.Publishing()))
        return { current in
            AnnouncementContent(
                title: title, body: body, readers: setsReaders ? readers : current?.readers,
                publishing: publishing.applied(to: current?.publishing ?? AnnouncementV3.Publishing()),
                audience: publishing.audience ?? current?.audience, markdown: markdown,
                acknowledgement: acknowledgement.applied(to: current?.acknowledgement))
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
        let markdown = markdown(object, errors: &errors)
        let setsBody = object["body"] != nil || markdown != nil
        let body = markdown.map { rendered($0, sanitizer: sanitizer, errors: &errors) } ?? body(object["body"], sanitizer: sanitizer, errors: &errors)
        let setsReaders = object["readers"] != nil
        let readers = readers(object["readers"], errors: &errors)
        let publishing = PublishingInput(object, errors: &errors)
        let acknowledgement = AcknowledgementInput(object, errors: &errors)
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return { current in
            AnnouncementContent(
                title: title ?? current.title,
                body: setsBody ? body : current.body,
                readers: setsReaders ? readers : current.readers,
                publishing: publishing.applied(to: current.publishing),
                audience: publishing.audience ?? current.audience,
                markdown: setsBody ? markdown : current.markdown,
                acknowledgement: acknowledgement.applied(to: current.acknowledgement)
            )
        }
    }

    /// Checks the publishing properties together, once merged with what is stored: expiry
    /// after publication.
    ///
    /// - Throws: ``APIError`` 422 naming `expiresAt`.
    static func checkWindow(_ publishing: AnnouncementV3.Publishing) throws {
        if let problem = AnnouncementRules.windowProblem(publishAt: publishing.publishAt, expiresAt: publishing.expiresAt) {
            throw APIError.validation([Problem.FieldError(field: "expiresAt", message: problem)])
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

    /// The Markdown source sent instead of a body (`nil` when not sent), recording why it is
    /// unusable when it is: not a string, sent with `body`, or too long.
    private static func markdown(_ object: [String: JSONValue], errors: inout [Problem.FieldError]) -> String? {
        guard let value = object["markdown"] else { return nil }
        // Both keys, even one of them null, are refused: which body was meant is not clear.
        if object["body"] != nil {
            errors.append(Problem.FieldError(field: "markdown", message: "replaces body: send body (HTML) or markdown, not both"))
            return nil
        }
        if value == .null { return nil }
        guard case .string(let text) = value else {
            errors.append(Problem.FieldError(field: "markdown", message: "must be a string, not \(value.typeName)"))
            return nil
        }
        if let problem = AnnouncementRules.bodyProblem(text) {
            errors.append(Problem.FieldError(field: "markdown", message: problem))
            return nil
        }
        return text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// The body made from Markdown, through the sanitiser like every body.
    private static func rendered(_ markdown: String, sanitizer: HTMLSanitizer, errors: inout [Problem.FieldError]) -> String? {
        let html = markdown.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : Markdown.html(markdown)
        guard !html.isEmpty else { return nil }
        let safe = sanitizer.sanitize(html).html
        if let problem = AnnouncementRules.bodyProblem(safe) {
            errors.append(Problem.FieldError(field: "markdown", message: problem + " once made HTML"))
        }
        return safe
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
