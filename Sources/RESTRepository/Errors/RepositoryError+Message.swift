import Foundation

extension RepositoryError {
    /// A short sentence for people, suitable for a screen or a terminal.
    ///
    /// The server's own problem `detail` is used where it helps (400, 409, other statuses);
    /// 422 lists each invalid field.
    public var userMessage: String {
        switch self {
        case .transport:
            return "The server could not be reached. Check the connection and try again."
        case .cancelled:
            return "The request was cancelled."
        case .badRequest(let details):
            return details.problem?.detail ?? "The server could not understand the request."
        case .unauthorized:
            return "Please sign in again."
        case .forbidden:
            return "You are not allowed to do that."
        case .notFound:
            return "It does not exist any more."
        case .conflict(let details):
            return details.problem?.detail ?? "It conflicts with the current state on the server."
        case .preconditionFailed:
            return "Someone else changed it in the meantime. Look at the latest version and try again."
        case .unprocessable(let details, let fieldErrors):
            guard !fieldErrors.isEmpty else {
                return details.problem?.detail ?? "The server did not accept the input."
            }
            return fieldErrors.map { "\($0.field) \($0.message)" }.joined(separator: "; ")
        case .rateLimited(_, let retryAfter):
            guard let retryAfter else { return "Too many requests. Try again later." }
            return "Too many requests. Try again in \(retryAfter.components.seconds) s."
        case .server:
            return "The server had a problem. Try again later."
        case .unexpectedStatus(let details):
            let fallback = "The server answered \(details.status.code) \(details.status.reasonPhrase)."
            return details.problem?.detail ?? fallback
        case .undecodable:
            return "The server's answer could not be read."
        case .encodingFailed:
            return "The request could not be prepared."
        case .missingETag:
            return "It was read without a version tag, so the change could not be guarded. Read it again and retry."
        case .localStore:
            return "Something could not be read or saved on this device."
        case .notStored:
            return "It has not been read on this device yet, so it cannot be shown offline."
        }
    }
}

extension RepositoryError: CustomStringConvertible {
    /// The user message, with the status and the decoding failure for developers.
    public var description: String {
        var text = "RepositoryError"
        if let statusCode {
            text += " \(statusCode)"
        }
        switch self {
        case .transport(let error): text += ": transport failed: \(error)"
        case .undecodable(_, let failure): text += ": \(failure)"
        case .encodingFailed(let reason): text += ": \(reason)"
        case .localStore(let error): text += ": local store failed: \(error)"
        case .notStored(let path): text += ": \(path) is not in the response store"
        default: text += ": \(userMessage)"
        }
        return text
    }
}
