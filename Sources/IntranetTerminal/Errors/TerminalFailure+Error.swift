import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TerminalFailure {
    /// The one place an error becomes a line for a person and an exit status.
    ///
    /// - Parameters:
    ///   - error: what a command met, usually a `RepositoryError`.
    ///   - server: the server's base URL, named when it cannot be reached.
    ///   - subject: what the command was about, e.g. `announcement 7`, for not-found and
    ///     conflict messages.
    public init(_ error: any Error, server: URL, subject: String) {
        if let failure = error as? TerminalFailure {
            self = failure
            return
        }
        if let conflict = error as? VersionConflict<Announcement> {
            self.init(.conflict, TerminalFailure.changedMeanwhile(subject, now: conflict.current.map { "it is now titled “\($0.value.title)”" }))
            return
        }
        if let conflict = error as? VersionConflict<Person> {
            self.init(.conflict, TerminalFailure.changedMeanwhile(subject, now: conflict.current.map { "it is now “\($0.value.name)”, \($0.value.jobTitle)" }))
            return
        }
        guard let error = error as? RepositoryError else {
            self.init(.failure, "\(subject): unexpected failure (\(type(of: error)))")
            return
        }
        switch error {
        case .transport(let underlying):
            self.init(.unreachable, TerminalFailure.unreachableMessage(server: server, underlying))
        case .cancelled:
            self.init(.failure, "cancelled")
        case .notFound:
            self.init(.notFound, "\(subject) does not exist")
        case .unprocessable(let details, let fieldErrors):
            let fields = fieldErrors.map { "\($0.field) \($0.message)" }.joined(separator: "; ")
            let reason = fields.isEmpty ? (details.problem?.detail ?? "invalid input") : fields
            self.init(.validation, "the server did not accept \(subject): \(reason)")
        case .preconditionFailed:
            self.init(.conflict, TerminalFailure.changedMeanwhile(subject, now: nil))
        case .missingETag:
            self.init(.conflict, "\(subject) was read without an ETag, so the change could not be guarded; nothing was saved")
        case .localStore(let underlying):
            self.init(.failure, "\(subject): could not save on this machine (\(underlying))")
        case .conflict(let details):
            self.init(.conflict, "\(subject) conflicts with the server's state: \(details.problem?.detail ?? "409 Conflict")")
        case .unauthorized(let details) where TerminalFailure.isSignatureRefusal(details):
            self.init(.unauthorized, "the server wants requests signed by a registered app (401\(TerminalFailure.detail(details))) — sign with --app-id and --app-secret, or INTRANET_APP_ID and INTRANET_APP_SECRET")
        case .unauthorized:
            self.init(.unauthorized, "not signed in, or the session has ended (401) — sign in with: intranet login --server \(server.absoluteString)")
        case .forbidden(let details):
            self.init(.unauthorized, "your account may not do this (403\(TerminalFailure.detail(details)))")
        case .badRequest(let details):
            self.init(.failure, "the server could not understand the request (400\(TerminalFailure.detail(details)))")
        case .rateLimited(_, let retryAfter):
            let wait = retryAfter.map { "; try again in \($0.components.seconds) s" } ?? ""
            self.init(.failure, "the server is receiving too many requests\(wait)")
        case .server(let details):
            let id = details.headerFields[.xRequestID].map { "; request id \($0)" } ?? ""
            self.init(.failure, "the server failed (\(details.status.code)\(id))")
        case .unexpectedStatus(let details):
            self.init(.failure, "the server answered \(details.status.code) \(details.status.reasonPhrase)\(TerminalFailure.detail(details))")
        case .undecodable(_, let failure):
            self.init(.failure, "the server's answer could not be read: \(failure)")
        case .encodingFailed(let reason):
            self.init(.failure, "the request could not be prepared: \(reason)")
        case .notStored:
            self.init(.unreachable, "\(subject) has not been read on this machine yet, so it cannot be shown offline")
        }
    }

    /// Whether a 401 refused the request's signature (`WWW-Authenticate: Signature …`)
    /// rather than its session.
    static func isSignatureRefusal(_ details: ResponseDetails) -> Bool {
        details.headerFields[.wwwAuthenticate]?.lowercased().hasPrefix("signature") == true
    }

    /// A lost race on a guarded write, naming the current title when it is known.
    private static func changedMeanwhile(_ subject: String, now state: String?) -> String {
        let now = state.map { " (\($0))" } ?? ""
        return "\(subject) was changed by someone else since it was read\(now); nothing was saved — look at it again and retry"
    }

    private static func detail(_ details: ResponseDetails) -> String {
        details.problem?.detail.map { ": \($0)" } ?? ""
    }

    static func unreachableMessage(server: URL, _ error: any Error) -> String {
        let code = (error as? URLError)?.code
        let reason: String
        var hint = ""
        switch code {
        case .cannotConnectToHost?:
            reason = "connection refused"
            hint = " — is it running? (swift run intranet-server)"
        case .timedOut?:
            reason = "no answer in time"
            hint = " — is it running? (swift run intranet-server)"
        case .cannotFindHost?, .dnsLookupFailed?:
            reason = "unknown host"
        case .networkConnectionLost?:
            reason = "the connection was lost"
        case .notConnectedToInternet?:
            reason = "no network"
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?:
            reason = "the secure connection failed"
        case .badURL?, .unsupportedURL?:
            reason = "not a usable URL"
        case let other?:
            reason = "network error \(other.rawValue)"
        case nil:
            reason = String(describing: type(of: error))
        }
        return "cannot reach the intranet server at \(server.absoluteString): \(reason)\(hint)"
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`, which the server puts on every response.
    static var xRequestID: Self { Self(HeaderName.requestID)! }
}
