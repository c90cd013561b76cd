import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository
import RESTRepositoryTesting
import Testing
@testable import IntranetTerminal
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Error messages and exit statuses")
struct ErrorReportingTests {
    private let detail = MockResponse.json(
        AnnouncementV2.Detail(id: 7, title: "Fire drill", body: nil, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0)),
        headerFields: [.eTag: "\"7.1.v2\""], encoder: IntranetJSON.encoder())

    @Test("an unreachable server fails at once (one attempt, no retry) in one line naming the URL and how to start it, status 69")
    func unreachable() async {
        let transport = MockTransport(script: [.failure(URLError(.cannotConnectToHost)), .text("[]")])

        let result = await runIntranet(["announcements"], transport: transport)

        #expect(result.status == 69)
        #expect(await transport.requests.count == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors == "intranet: cannot reach the intranet server at http://127.0.0.1:8080: connection refused — is it running? (swift run intranet-server)\n")
    }

    @Test("an unknown id is 'does not exist', status 66, under 2.0 from the 404 and under 1.0 after walking the list")
    func notFound() async {
        let v2 = await runIntranet(["announcements", "show", "42"], transport: MockTransport(script: [.problem(.notFound, detail: "No announcement 42.")]))
        let v1 = await runIntranet(["announcements", "show", "42", "--api-version", "1.0"],
                                   transport: MockTransport(script: [.text(#"[{"id":1,"title":"A","body":null}]"#, headerFields: [.xTotal: "1"])]))

        #expect(v2.status == 66)
        #expect(v2.errors == "intranet: announcement 42 does not exist\n")
        #expect(v1.status == 66)
        #expect(v1.errors == "intranet: announcement 42 does not exist\n")
    }

    @Test("a rejected input lists each field's message, status 65")
    func validation() async {
        let transport = MockTransport(script: [.problem(
            .unprocessableContent, detail: "The announcement is invalid.",
            fieldErrors: [("title", "must not be empty or only white space"), ("body", "must be at most 1000000 bytes of UTF-8")])])

        let result = await runIntranet(["announcements", "create", "--title", " "], transport: transport)

        #expect(result.status == 65)
        #expect(result.errors == "intranet: the server did not accept the new announcement: title must not be empty or only white space; body must be at most 1000000 bytes of UTF-8\n")
    }

    @Test("a concurrent edit is a conflict naming the current title, status 75, and nothing is overwritten")
    func conflict() async throws {
        let current = MockResponse.json(
            AnnouncementV2.Detail(id: 7, title: "Fire drill moved", body: nil, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 9)),
            headerFields: [.eTag: "\"7.2.v2\""], encoder: IntranetJSON.encoder())
        let transport = MockTransport(script: [detail, .problem(.preconditionFailed), current])

        let result = await runIntranet(["announcements", "update", "7", "--title", "Mine"], transport: transport)

        let patch = try #require(await transport.requests.dropFirst().first)
        #expect(patch.method == .patch)
        #expect(patch.headerFields[.ifMatch] == "\"7.1.v2\"")
        #expect(result.status == 75)
        #expect(result.errors == "intranet: announcement 7 was changed by someone else since it was read (it is now titled “Fire drill moved”); nothing was saved — look at it again and retry\n")
    }

    @Test("a person changed meanwhile is a conflict naming who they are now, status 75 (it was status 1, found by review)")
    func personConflict() {
        let now = Person(id: 22, name: "Pieter van Vries", email: "p@brightwater.example", jobTitle: "Service Desk Lead", department: "IT")
        let conflict = VersionConflict<Person>(
            response: ResponseDetails(status: .preconditionFailed, headerFields: [:], body: Data()), current: Versioned(now, etag: "\"22.4.pabc\""))

        let failure = TerminalFailure(conflict, server: URL(string: "http://127.0.0.1:8080")!, subject: "person 22")

        #expect(failure.status == .conflict)
        #expect(failure.message.contains("person 22 was changed by someone else since it was read (it is now “Pieter van Vries”, Service Desk Lead)"))
    }

    @Test("401 and 403 are status 77; a 500 is status 1 with the request id; an unreadable answer is status 1", arguments: [
        (MockResponse.problem(.unauthorized, detail: "Sign in first."), Int32(77),
         "intranet: not signed in, or the session has ended (401) — sign in with: intranet login --server http://127.0.0.1:8080\n"),
        (MockResponse.problem(.forbidden, detail: "Editors only."), Int32(77), "intranet: your account may not do this (403: Editors only.)\n"),
        (MockResponse.problem(.internalServerError, headerFields: [HTTPField.Name("X-Request-Id")!: "abc123"]), Int32(1),
         "intranet: the server failed (500; request id abc123)\n"),
        (MockResponse.text(#"{"oops":true}"#), Int32(1),
         "intranet: the server's answer could not be read: "),
    ])
    func otherStatuses(response: MockResponse, status: Int32, message: String) async {
        let result = await runIntranet(["announcements"], transport: MockTransport(script: [response]))

        #expect(result.status == status)
        #expect(result.errors.hasPrefix(message), "stderr: \(result.errors)")
        #expect(result.errors.filter { $0 == "\n" }.count == 1)
    }

    @Test("every failure is exactly one line, never a Swift error dump")
    func oneLine() async {
        let responses: [MockResponse] = [
            .failure(URLError(.timedOut)), .failure(URLError(.cannotFindHost)), .problem(.badRequest, detail: "max must be 1 to 100"),
            .problem(.conflict), .problem(.tooManyRequests, headerFields: [.retryAfter: "30"]), .status(.notAcceptable), .text("not json"),
        ]
        for response in responses {
            let result = await runIntranet(["announcements"], transport: MockTransport(script: [response]))

            #expect(result.status != 0)
            #expect(result.errors.hasPrefix("intranet: "))
            #expect(result.errors.filter { $0 == "\n" }.count == 1, "stderr: \(result.errors)")
            #expect(!result.errors.contains("RepositoryError") && !result.errors.contains("URLError") && !result.errors.contains("Optional("))
        }
    }
}
