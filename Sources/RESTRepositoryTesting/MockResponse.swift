import Foundation
import HTTPTypes
import RESTRepository
import Spearal

/// One answer of a ``MockTransport``: a response with a body, or a failure.
public struct MockResponse: Sendable {
    private enum Outcome: Sendable {
        case response(HTTPResponse, Data)
        case failure(any Error)
    }

    private let outcome: Outcome

    /// A response with the given status, header fields and body.
    ///
    /// - Parameters:
    ///   - status: the status (200 by default).
    ///   - headerFields: the header fields.
    ///   - body: the body bytes (none by default).
    public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: Data = Data()) {
        outcome = .response(HTTPResponse(status: status, headerFields: headerFields), body)
    }

    private init(failure: any Error) {
        outcome = .failure(failure)
    }

    /// A response with no body, e.g. `.status(.noContent)`.
    public static func status(_ status: HTTPResponse.Status, headerFields: HTTPFields = [:]) -> MockResponse {
        MockResponse(status: status, headerFields: headerFields)
    }

    /// A JSON response encoding `value` (with `Content-Type: application/json`).
    ///
    /// - Parameters:
    ///   - value: the body.
    ///   - status: the status (200 by default).
    ///   - headerFields: more header fields.
    ///   - encoder: the encoder (a plain `JSONEncoder` by default).
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> MockResponse {
        do {
            return .text(
                String(decoding: try encoder.encode(value), as: UTF8.self), status: status,
                headerFields: headerFields, contentType: "application/json")
        } catch {
            return .failure(error)
        }
    }

    /// A Spearal response encoding `value` (with `Content-Type: application/spearal`).
    ///
    /// - Parameters:
    ///   - value: the body; name its class with `SpearalClassNamed` as the server does.
    ///   - status: the status (200 by default).
    ///   - headerFields: more header fields.
    ///   - encoder: the encoder (a plain `SpearalEncoder` by default; give it a property filter
    ///     to answer as a filtering server would).
    public static func spearal(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:],
        encoder: SpearalEncoder = SpearalEncoder()
    ) -> MockResponse {
        do {
            var fields = headerFields
            fields[.contentType] = SpearalBodyCoder.mediaType
            return MockResponse(status: status, headerFields: fields, body: try encoder.encode(value))
        } catch {
            return .failure(error)
        }
    }

    /// A response whose body is `text` verbatim, e.g. hand-written or deliberately broken JSON.
    ///
    /// - Parameters:
    ///   - text: the body.
    ///   - status: the status (200 by default).
    ///   - headerFields: more header fields.
    ///   - contentType: the `Content-Type` (`application/json` by default).
    public static func text(
        _ text: String,
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:],
        contentType: String = "application/json"
    ) -> MockResponse {
        var fields = headerFields
        if fields[.contentType] == nil {
            fields[.contentType] = contentType
        }
        return MockResponse(status: status, headerFields: fields, body: Data(text.utf8))
    }

    /// An RFC 9457 problem response (`application/problem+json`).
    ///
    /// - Parameters:
    ///   - status: the error status.
    ///   - title: the problem title.
    ///   - detail: the problem detail.
    ///   - fieldErrors: `(field, message)` pairs for the `errors` member.
    ///   - headerFields: more header fields, e.g. `Retry-After`.
    public static func problem(
        _ status: HTTPResponse.Status,
        title: String? = nil,
        detail: String? = nil,
        fieldErrors: [(field: String, message: String)] = [],
        headerFields: HTTPFields = [:]
    ) -> MockResponse {
        var object: [String: JSONValueWriter] = [
            "type": .string("about:blank"),
            "title": .string(title ?? status.reasonPhrase),
            "status": .number(status.code),
        ]
        if let detail { object["detail"] = .string(detail) }
        if !fieldErrors.isEmpty {
            object["errors"] = .list(fieldErrors.map { ["field": $0.field, "message": $0.message] })
        }
        var fields = headerFields
        fields[.contentType] = "application/problem+json"
        return .json(object, status: status, headerFields: fields)
    }

    /// A failure before any response, e.g. `URLError(.notConnectedToInternet)`.
    public static func failure(_ error: any Error) -> MockResponse {
        MockResponse(failure: error)
    }

    /// The response, or the scripted failure thrown.
    func result() throws -> (HTTPResponse, Data) {
        switch outcome {
        case .response(let head, let body): return (head, body)
        case .failure(let error): throw error
        }
    }
}

/// The few JSON shapes a problem body needs, encodable without `Any`.
private enum JSONValueWriter: Encodable {
    case string(String)
    case number(Int)
    case list([[String: String]])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        }
    }
}
