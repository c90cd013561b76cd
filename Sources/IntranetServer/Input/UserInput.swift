import IntranetAPI

/// Validates the bodies of the account routes; every bad field is named in one 422.
enum UserInput {
    /// bcrypt reads at most 72 bytes of a password; longer ones would be silently cut.
    static let maxPasswordBytes = 72
    static let minPasswordLength = 8

    /// `POST /login`: `username` and `password`, both strings.
    static func login(from json: JSONValue) throws -> LoginRequest {
        let object = try object(json)
        var errors: [Problem.FieldError] = []
        let username = string(object, "username", required: true, errors: &errors)
        let password = string(object, "password", required: true, errors: &errors)
        guard errors.isEmpty, let username, let password else { throw APIError.validation(errors) }
        return LoginRequest(username: username, password: password)
    }

    /// `POST /users`.
    static func newUser(from json: JSONValue) throws -> NewUser {
        let object = try object(json)
        var errors: [Problem.FieldError] = []
        let username = string(object, "username", required: true, errors: &errors).flatMap { check(username: $0, errors: &errors) }
        let displayName = string(object, "displayName", required: false, errors: &errors).flatMap { check(displayName: $0, errors: &errors) }
        let role = string(object, "role", required: true, errors: &errors).flatMap { check(role: $0, errors: &errors) }
        let password = string(object, "password", required: true, errors: &errors).flatMap { check(password: $0, errors: &errors) }
        guard errors.isEmpty, let username, let role, let password else { throw APIError.validation(errors) }
        return NewUser(username: username, displayName: displayName ?? username, role: role, password: password)
    }

    /// `PATCH /users/{id}`: any of `displayName`, `role`, `password`; none may be `null`.
    static func changes(from json: JSONValue) throws -> (displayName: String?, role: UserRole?, password: String?) {
        let object = try object(json)
        var errors: [Problem.FieldError] = []
        let displayName = string(object, "displayName", required: false, errors: &errors).flatMap { check(displayName: $0, errors: &errors) }
        let role = string(object, "role", required: false, errors: &errors).flatMap { check(role: $0, errors: &errors) }
        let password = string(object, "password", required: false, errors: &errors).flatMap { check(password: $0, errors: &errors) }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return (displayName, role, password)
    }

    /// The problem with a username, or `nil`: 1–64 letters, digits, `.`, `_` or `-`.
    static func usernameProblem(_ username: String) -> String? {
        guard (1...64).contains(username.utf8.count),
              username.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { return "must be 1 to 64 letters, digits, '.', '_' or '-'" }
        return nil
    }

    /// The problem with a password, or `nil`.
    static func passwordProblem(_ password: String) -> String? {
        if password.count < minPasswordLength { return "must be at least \(minPasswordLength) characters" }
        if password.utf8.count > maxPasswordBytes { return "must be at most \(maxPasswordBytes) bytes of UTF-8" }
        return nil
    }

    private static func object(_ json: JSONValue) throws -> [String: JSONValue] {
        guard case .object(let object) = json else {
            throw APIError.validation([.init(field: AnnouncementInput.wholeBody, message: "must be a JSON object, not \(json.typeName)")])
        }
        return object
    }

    private static func string(_ object: [String: JSONValue], _ key: String, required: Bool, errors: inout [Problem.FieldError]) -> String? {
        switch object[key] {
        case nil:
            if required { errors.append(.init(field: key, message: "is required")) }
            return nil
        case .string(let text)?:
            return text
        case let other?:
            errors.append(.init(field: key, message: "must be a string, not \(other.typeName)"))
            return nil
        }
    }

    private static func check(username: String, errors: inout [Problem.FieldError]) -> String? {
        guard let problem = usernameProblem(username) else { return username }
        errors.append(.init(field: "username", message: problem))
        return nil
    }

    private static func check(displayName: String, errors: inout [Problem.FieldError]) -> String? {
        let trimmed = AnnouncementRules.normalizedTitle(displayName)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 255 else {
            errors.append(.init(field: "displayName", message: "must be 1 to 255 characters"))
            return nil
        }
        return trimmed
    }

    private static func check(role: String, errors: inout [Problem.FieldError]) -> UserRole? {
        guard let parsed = UserRole(rawValue: role) else {
            errors.append(.init(field: "role", message: "must be reader, editor or admin"))
            return nil
        }
        return parsed
    }

    private static func check(password: String, errors: inout [Problem.FieldError]) -> String? {
        guard let problem = passwordProblem(password) else { return password }
        errors.append(.init(field: "password", message: problem))
        return nil
    }
}
