import IntranetAPI

/// Turns a parsed request body (JSON, or a Spearal bean read as one) into a person's content,
/// or a 422 naming every bad field. Keys other than the editable fields (`reportIds`,
/// `manager`, `reports`, `id`) are ignored: reports are derived from their managers.
enum PersonInput {
    /// The content of a `POST` or `PUT`: `name`, `email`, `jobTitle` and `department` are
    /// required; an absent `phone`, `location`, `managerId` or `userId` is `null`.
    static func draft(from json: JSONValue) throws -> PersonContent {
        let object = try requireObject(json)
        var errors: [Problem.FieldError] = []
        let name = requiredText("name", object["name"], errors: &errors)
        let email = email(object["email"], errors: &errors)
        let jobTitle = requiredText("jobTitle", object["jobTitle"], errors: &errors)
        let department = requiredText("department", object["department"], errors: &errors)
        let phone = phone(object["phone"], errors: &errors)
        let location = optionalText("location", object["location"], maxCodePoints: PersonRules.maxTextCodePoints, errors: &errors)
        let managerID = id("managerId", object["managerId"], errors: &errors)
        let userID = id("userId", object["userId"], errors: &errors)
        guard errors.isEmpty, let name, let email, let jobTitle, let department else { throw APIError.validation(errors) }
        return PersonContent(
            name: name, email: email, jobTitle: jobTitle, department: department, phone: phone, location: location,
            managerID: managerID, userID: userID)
    }

    /// A JSON Merge Patch (RFC 7396) of a person: absent keys keep their value, `null` clears
    /// an optional field and is refused for a required one. Validated before the person is
    /// read, so a bad patch changes nothing.
    static func mergePatch(from json: JSONValue) throws -> @Sendable (StoredPerson) -> PersonContent {
        let object = try requireObject(json)
        var errors: [Problem.FieldError] = []
        let name = object["name"] == nil ? nil : requiredText("name", object["name"], errors: &errors)
        let email = object["email"] == nil ? nil : email(object["email"], errors: &errors)
        let jobTitle = object["jobTitle"] == nil ? nil : requiredText("jobTitle", object["jobTitle"], errors: &errors)
        let department = object["department"] == nil ? nil : requiredText("department", object["department"], errors: &errors)
        let phone = phone(object["phone"], errors: &errors)
        let location = optionalText("location", object["location"], maxCodePoints: PersonRules.maxTextCodePoints, errors: &errors)
        let managerID = id("managerId", object["managerId"], errors: &errors)
        let userID = id("userId", object["userId"], errors: &errors)
        guard errors.isEmpty else { throw APIError.validation(errors) }
        let sets = (phone: object["phone"] != nil, location: object["location"] != nil, manager: object["managerId"] != nil, user: object["userId"] != nil)
        return { current in
            PersonContent(
                name: name ?? current.name, email: email ?? current.email, jobTitle: jobTitle ?? current.jobTitle,
                department: department ?? current.department, phone: sets.phone ? phone : current.phone,
                location: sets.location ? location : current.location, managerID: sets.manager ? managerID : current.managerID,
                userID: sets.user ? userID : current.userID)
        }
    }

    private static func requireObject(_ json: JSONValue) throws -> [String: JSONValue] {
        guard case .object(let object) = json else {
            throw APIError.validation([Problem.FieldError(field: AnnouncementInput.wholeBody, message: "must be a JSON object, not \(json.typeName)")])
        }
        return object
    }

    private static func requiredText(_ field: String, _ value: JSONValue?, errors: inout [Problem.FieldError]) -> String? {
        let problem: String
        switch value {
        case nil: problem = "is required"
        case .null?: problem = "must not be null"
        case .string(let text)?:
            guard let invalid = PersonRules.textProblem(text) else { return PersonRules.normalized(text) }
            problem = invalid
        case let other?: problem = "must be a string, not \(other.typeName)"
        }
        errors.append(Problem.FieldError(field: field, message: problem))
        return nil
    }

    private static func email(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> String? {
        guard case .string(let text)? = value else { return requiredText("email", value, errors: &errors) }
        if let problem = PersonRules.emailProblem(text) {
            errors.append(Problem.FieldError(field: "email", message: problem))
            return nil
        }
        return PersonRules.normalized(text)
    }

    /// An optional text: `nil` for absent, `null` or only white space.
    private static func optionalText(_ field: String, _ value: JSONValue?, maxCodePoints: Int, errors: inout [Problem.FieldError]) -> String? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)?:
            if let problem = PersonRules.optionalTextProblem(text, maxCodePoints: maxCodePoints) {
                errors.append(Problem.FieldError(field: field, message: problem))
                return nil
            }
            let trimmed = PersonRules.normalized(text)
            return trimmed.isEmpty ? nil : trimmed
        case let other?:
            errors.append(Problem.FieldError(field: field, message: "must be a string or null, not \(other.typeName)"))
            return nil
        }
    }

    private static func phone(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> String? {
        guard let phone = optionalText("phone", value, maxCodePoints: PersonRules.maxPhoneCodePoints, errors: &errors) else { return nil }
        if let problem = PersonRules.phoneProblem(phone) {
            errors.append(Problem.FieldError(field: "phone", message: problem))
            return nil
        }
        return phone
    }

    /// A person's or account's id: a positive whole number, or `nil` for absent or `null`.
    private static func id(_ field: String, _ value: JSONValue?, errors: inout [Problem.FieldError]) -> Int? {
        switch value {
        case nil, .null?:
            return nil
        case .number(let number)? where number >= 1 && number <= Double(Int32.max) && number.rounded() == number:
            return Int(number)
        case let other?:
            errors.append(Problem.FieldError(field: field, message: "must be null or an id (a positive whole number), not \(other.typeName == "number" ? "that number" : other.typeName)"))
            return nil
        }
    }
}
