import Foundation
import HTTPTypes

/// What an error keeps of the response that caused it: status, header fields, raw body and
/// the decoded problem body when there was one.
public struct ResponseDetails: Sendable, Equatable {
    /// The response status.
    public var status: HTTPResponse.Status
    /// The response header fields.
    public var headerFields: HTTPFields
    /// The raw response body.
    public var body: Data
    /// The body decoded as RFC 9457 problem details, when it was one.
    public var problem: ProblemDetails?

    /// Creates response details, decoding `problem` from `body` when it is a JSON object.
    ///
    /// - Parameters:
    ///   - status: the response status.
    ///   - headerFields: the response header fields.
    ///   - body: the raw body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: Data) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        let isError = status.kind == .clientError || status.kind == .serverError
        self.problem = isError && !body.isEmpty
            ? try? JSONDecoder().decode(ProblemDetails.self, from: body)
            : nil
    }

    /// The problem body's field errors, or none.
    public var fieldErrors: [ProblemDetails.FieldError] {
        problem?.errors ?? []
    }

    /// Decodes the body as a server-specific problem type, or `nil` when it is not one.
    ///
    /// - Parameters:
    ///   - type: the problem type, e.g. a server's own `Problem`.
    ///   - decoder: the decoder to use.
    public func decodeProblem<Problem: Decodable>(
        as type: Problem.Type, decoder: JSONDecoder = JSONDecoder()
    ) -> Problem? {
        try? decoder.decode(type, from: body)
    }
}
