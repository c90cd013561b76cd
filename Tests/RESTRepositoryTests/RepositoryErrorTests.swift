import Foundation
import HTTPTypes
import RESTRepository
import RESTRepositoryTesting
import Testing

@Suite("RepositoryError")
struct RepositoryErrorTests {
    /// The case name an error maps to, for table-driven checks.
    private static func caseName(_ error: RepositoryError) -> String {
        switch error {
        case .transport: "transport"
        case .cancelled: "cancelled"
        case .badRequest: "badRequest"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "notFound"
        case .conflict: "conflict"
        case .preconditionFailed: "preconditionFailed"
        case .unprocessable: "unprocessable"
        case .rateLimited: "rateLimited"
        case .server: "server"
        case .unexpectedStatus: "unexpectedStatus"
        case .undecodable: "undecodable"
        case .encodingFailed: "encodingFailed"
        case .missingETag: "missingETag"
        case .localStore: "localStore"
        case .notStored: "notStored"
        }
    }

    @Test("each status maps to its own case and keeps status, headers and problem", arguments: [
        (400, "badRequest"), (401, "unauthorized"), (403, "forbidden"), (404, "notFound"),
        (410, "notFound"), (409, "conflict"), (412, "preconditionFailed"), (422, "unprocessable"),
        (429, "rateLimited"), (500, "server"), (503, "server"), (405, "unexpectedStatus"),
        (406, "unexpectedStatus"), (302, "unexpectedStatus"),
    ])
    func statusMapping(code: Int, expected: String) throws {
        let body = Data(#"{"type":"about:blank","title":"T","status":\#(code),"detail":"D"}"#.utf8)
        let response = HTTPResponse(
            status: .init(code: code), headerFields: .fields([("X-Request-Id", "r1")]))

        let error = try #require(RepositoryError(response: response, body: body))

        #expect(Self.caseName(error) == expected)
        #expect(error.statusCode == code)
        #expect(error.response?.headerFields[HTTPField.Name("X-Request-Id")!] == "r1")
        if code >= 400 {
            #expect(error.response?.problem?.detail == "D")
        }
    }

    @Test("2xx responses, 204 with an empty body included, are not errors", arguments: [200, 201, 204])
    func successIsNotError(code: Int) {
        #expect(RepositoryError(response: HTTPResponse(status: .init(code: code)), body: Data()) == nil)
    }

    @Test("429 carries the Retry-After delay in seconds or as an HTTP date")
    func rateLimitedRetryAfter() throws {
        let seconds = HTTPResponse(status: .tooManyRequests, headerFields: .fields([("Retry-After", "120")]))
        let now = Date(timeIntervalSince1970: 1_445_412_420)

        let error = try #require(RepositoryError(response: seconds, body: Data()))

        guard case .rateLimited(_, let retryAfter) = error else {
            Issue.record("expected rateLimited")
            return
        }
        #expect(retryAfter == .seconds(120))
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.parse("soon") == nil)
    }

    @Test("a failure before any response becomes transport, cancellation becomes cancelled")
    func transportFailures() async throws {
        let transport = MockTransport(script: [
            .failure(URLError(.notConnectedToInternet)), .failure(CancellationError()),
        ])
        let client = makeClient(transport)

        let offline = await #expect(throws: RepositoryError.self) {
            try await client.perform(RESTRequest(.get, path: "/x"))
        }
        let cancelled = await #expect(throws: RepositoryError.self) {
            try await client.perform(RESTRequest(.get, path: "/x"))
        }

        guard case .transport(let underlying) = try #require(offline) else {
            Issue.record("expected transport")
            return
        }
        #expect((underlying as? URLError)?.code == .notConnectedToInternet)
        #expect(Self.caseName(try #require(cancelled)) == "cancelled")
    }

    @Test("a non-JSON error body keeps its bytes and has no problem")
    func nonJSONErrorBody() throws {
        let response = HTTPResponse(status: .badGateway)

        let error = try #require(RepositoryError(response: response, body: Data("<html>".utf8)))

        #expect(error.response?.problem == nil)
        #expect(error.response?.body == Data("<html>".utf8))
    }

    @Test("a server-specific problem type can be decoded from the kept body")
    func serverProblemType() throws {
        struct VersionProblem: Decodable { var supportedVersions: [String] }
        let body = Data(#"{"title":"Not Acceptable","status":406,"supportedVersions":["1.0","2.0"]}"#.utf8)

        let error = try #require(RepositoryError(response: HTTPResponse(status: .notAcceptable), body: body))

        let problem = try #require(error.response?.decodeProblem(as: VersionProblem.self))
        #expect(problem.supportedVersions == ["1.0", "2.0"])
    }

    @Test("user messages are readable and list 422 field errors")
    func userMessages() throws {
        let unprocessable = RepositoryError.unprocessable(
            ResponseDetails(status: .unprocessableContent, headerFields: [:], body: Data()),
            fieldErrors: [.init(field: "title", message: "must not be empty")])

        #expect(unprocessable.userMessage == "title must not be empty")
        #expect(RepositoryError.transport(URLError(.timedOut)).userMessage.contains("could not be reached"))
    }
}
