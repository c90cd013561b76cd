import Foundation
import IntranetAPI

/// The `acknowledgement` property of a request body (API 3.0), validated: not sent keeps what
/// is stored; `null` or `{"required": false}` stops asking; `{"required": true, "dueAt": …}`
/// asks (a `dueAt` not sent keeps the stored one, `null` removes it); `"newRound": true` asks
/// everyone again.
struct AcknowledgementInput: Sendable {
    private enum Asked: Sendable {
        case stop
        case ask(dueAt: Date??, newRound: Bool)
    }

    private let asked: Asked?

    /// Reads `acknowledgement` from `object`, recording a field error when it is unusable.
    init(_ object: [String: JSONValue], errors: inout [Problem.FieldError]) {
        asked = Self.asked(object["acknowledgement"], errors: &errors)
    }

    /// `current` (`nil` for a new announcement) with what was sent: the round moves on when
    /// the announcement asks for the first time, or when a new round is asked for.
    func applied(to current: AcknowledgementRule?) -> AcknowledgementRule {
        let current = current ?? AcknowledgementRule()
        switch asked {
        case nil:
            return current
        case .stop?:
            return AcknowledgementRule(required: false, dueAt: nil, round: current.round)
        case .ask(let dueAt, let newRound)?:
            let round = current.round == 0 || newRound ? current.round + 1 : current.round
            return AcknowledgementRule(required: true, dueAt: dueAt ?? (current.required ? current.dueAt : nil), round: round)
        }
    }

    private static func asked(_ value: JSONValue?, errors: inout [Problem.FieldError]) -> Asked? {
        let field = "acknowledgement"
        switch value {
        case nil: return nil
        case .null?: return .stop
        case .object(let object)?:
            let unknown = object.keys.filter { !["required", "dueAt", "newRound"].contains($0) }.sorted()
            guard unknown.isEmpty else {
                errors.append(Problem.FieldError(field: field, message: "has unknown keys: \(unknown.joined(separator: ", "))"))
                return nil
            }
            guard case .bool(let required)? = object["required"] else {
                errors.append(Problem.FieldError(field: "\(field).required", message: "must be true or false"))
                return nil
            }
            var newRound = false
            switch object["newRound"] {
            case nil: break
            case .bool(let flag)?: newRound = flag
            case let other?:
                errors.append(Problem.FieldError(field: "\(field).newRound", message: "must be true or false, not \(other.typeName)"))
                return nil
            }
            guard required else {
                if newRound {
                    errors.append(Problem.FieldError(field: "\(field).newRound", message: "asks everyone again, which needs required: true"))
                    return nil
                }
                if let dueAt = object["dueAt"], dueAt != .null {
                    errors.append(Problem.FieldError(field: "\(field).dueAt", message: "needs required: true"))
                    return nil
                }
                return .stop
            }
            var dueAt: Date?? = nil
            switch object["dueAt"] {
            case nil: break
            case .null?: dueAt = .some(nil)
            case .string(let text)?:
                guard let date = PublishingInput.strictInstant(text) else {
                    errors.append(Problem.FieldError(
                        field: "\(field).dueAt", message: "must be an RFC 3339 instant with a zone, like 2026-12-07T08:00:00+01:00"))
                    return nil
                }
                if let problem = AnnouncementRules.instantProblem(date) {
                    errors.append(Problem.FieldError(field: "\(field).dueAt", message: problem))
                    return nil
                }
                dueAt = .some(FluentAnnouncementRepository.millisecondPrecision(date))
            case let other?:
                errors.append(Problem.FieldError(field: "\(field).dueAt", message: "must be an RFC 3339 instant or null, not \(other.typeName)"))
                return nil
            }
            return .ask(dueAt: dueAt, newRound: newRound)
        case let other?:
            errors.append(Problem.FieldError(field: field, message: "must be an object with required and dueAt, or null, not \(other.typeName)"))
            return nil
        }
    }
}
