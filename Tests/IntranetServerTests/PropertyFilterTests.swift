import Foundation
import HTTPTypes
import HummingbirdTesting
import IntranetAPI
import Spearal
import Testing
@testable import IntranetServer

/// `Spearal-PropertyFilter` and its JSON twin `?fields=`.
@Suite("Property filters")
struct PropertyFilterTests {
    private static let filter = HTTPField.Name("Spearal-PropertyFilter")!

    @Test("a filter header keeps the named properties and the id, in Spearal and in JSON", arguments: TestStorage.all)
    func headerFilter(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let spearal = try await client.send(.get, "/announcements/2", headers: [
                .accept: "application/spearal", Self.filter: "intranet.Announcement#title,createdAt",
            ]).bean()
            let json = try await client.send(.get, "/announcements/2", headers: [Self.filter: "intranet.Announcement#title"]).object()
            let list = try await client.send(.get, "/announcements", version: "1.0", headers: [
                .accept: "application/spearal", Self.filter: "intranet.AnnouncementSummary#title",
            ]).beans()

            #expect(spearal.names == ["id", "title", "createdAt"])
            #expect(Set(json.keys) == ["id", "title"])
            #expect(list.count == 6 && list.allSatisfy { $0.names == ["id", "title"] })
        }
    }

    @Test("fields= filters the route's own class in both formats, and paging links carry it on", arguments: TestStorage.all)
    func fieldsParameter(storage: TestStorage) async throws {
        try await withTestServer(storage) { _, client in
            let list = try await client.send(.get, "/announcements?fields=title&max=2", version: "1.0")
            let detail = try await client.send(.get, "/announcements/2?fields=updatedAt", headers: [.accept: "application/spearal"]).bean()
            let me = try await client.send(.get, "/users/me?fields=username", as: .reader).object()

            #expect(try list.objects().map { Set($0.keys) } == [["id", "title"], ["id", "title"]])
            #expect(list.headers[HTTPField.Name("Link")!]?.contains("fields=title") == true)
            #expect(detail.names == ["id", "updatedAt"])
            #expect(Set(me.keys) == ["id", "username"])
        }
    }

    @Test("several header lines, or one line a proxy joined with commas, filter several classes")
    func severalClasses() async throws {
        try await withTestServer { _, client in
            var lines = HTTPFields()
            lines.append(HTTPField(name: Self.filter, value: "intranet.LoginResponse#token"))
            lines.append(HTTPField(name: Self.filter, value: "intranet.User#username"))
            let separate = try await client.send(.post, "/login", headers: lines, json: #"{"username":"reader","password":"\#(TestUser.password)"}"#, as: .anonymous)
            let joined = try await client.send(.post, "/login", headers: [Self.filter: "intranet.LoginResponse#token,user, intranet.User#username"],
                                               json: #"{"username":"reader","password":"\#(TestUser.password)"}"#, as: .anonymous)

            #expect(Set(try separate.object().keys) == ["token"])
            let session = try joined.object()
            #expect(Set(session.keys) == ["token", "user"])
            #expect((session["user"] as? [String: Any]).map { Set($0.keys) } == ["id", "username"])
        }
    }

    @Test("an unknown class, an unknown property, or a property the version lacks is 400 naming it", arguments: [
        ("/announcements/2", "intranet.Memo#title", "2.0", "intranet.Memo"),
        ("/announcements/2", "intranet.Announcement#titel", "2.0", "titel"),
        ("/announcements/2", "title,body", "2.0", "class#property"),
        ("/announcements", "intranet.AnnouncementSummary#body", "2.0", "body"),
        ("/announcements/2", "intranet.Announcement#createdAt", "1.0", "createdAt"),
        ("/announcements/2?fields=colour", nil, "2.0", "colour"),
        ("/announcements?fields=createdAt", nil, "1.0", "createdAt"),
        ("/announcements/2?%66ields=colour", nil, "2.0", "colour"),
        ("/announcements/2?fields=", nil, "2.0", "names no property"),
        ("/announcements/2", "intranet.Announcement#", "2.0", "names no property"),
    ] as [(String, String?, String, String)])
    func unknownNames(path: String, header: String?, version: String, named: String) async throws {
        try await withTestServer { _, client in
            var headers: HTTPFields = [:]
            if let header { headers[Self.filter] = header }
            for format in ["application/json", "application/spearal"] {
                headers[.accept] = format
                let response = try await client.send(.get, path, version: version, headers: headers)

                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/problem+json")
                let detail = try #require(try response.object()["detail"] as? String)
                #expect(detail.contains(named), "\(detail)")
            }
        }
    }

    @Test("percent-encoded names and commas in fields= are decoded")
    func percentEncodedFields() async throws {
        try await withTestServer { _, client in
            let encoded = try await client.send(.get, "/announcements/2?fields=title%2CcreatedAt").object()
            let encodedName = try await client.send(.get, "/announcements/2?%66ields=title").object()

            #expect(Set(encoded.keys) == ["id", "title", "createdAt"])
            #expect(Set(encodedName.keys) == ["id", "title"])
        }
    }

    @Test("signed out, /users/me with a bad filter is still 401")
    func signInComesFirst() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.get, "/users/me?fields=nope")

            #expect(response.status == .unauthorized)
        }
    }

    @Test("a bad filter on a write is refused before anything changes")
    func badFilterOnWrite() async throws {
        try await withTestServer { _, client in
            let response = try await client.send(.post, "/announcements?fields=nope", json: #"{"title":"Never stored"}"#)

            #expect(response.status == .badRequest)
            #expect(try await client.send(.get, "/announcements").headers[.total] == "6")
        }
    }

    @Test("a filtered answer is its own representation: its ETag differs per filter and format, and revalidates")
    func entityTags() async throws {
        try await withTestServer { _, client in
            func tag(_ path: String, _ headers: HTTPFields = [:]) async throws -> String {
                try #require(try await client.send(.get, path, headers: headers).headers[.eTag])
            }
            let spearal: HTTPFields = [.accept: "application/spearal"]
            for path in ["/announcements/2", "/announcements"] {
                let separator = path.contains("?") ? "&" : "?"
                let tags = [
                    try await tag(path),
                    try await tag(path + separator + "fields=title"),
                    try await tag(path, spearal),
                    try await tag(path + separator + "fields=title", spearal),
                    try await tag(path, [Self.filter: "intranet.Announcement#title,body"]),
                ]
                #expect(Set(tags).count == tags.count, "\(tags)")
            }
            let filtered = try await client.send(.get, "/announcements/2?fields=title", headers: spearal)
            let again = try await client.send(.get, "/announcements/2?fields=title", headers: [.accept: "application/spearal", .ifNoneMatch: try #require(filtered.headers[.eTag])])
            let unfiltered = try await client.send(.get, "/announcements/2", headers: [.accept: "application/spearal", .ifNoneMatch: try #require(filtered.headers[.eTag])])
            #expect(again.status == .notModified)
            #expect(unfiltered.status == .ok)
        }
    }

    @Test("naming every property gives the unfiltered JSON bytes, under a different ETag")
    func everyPropertyIsTheSameJSON() async throws {
        try await withTestServer { _, client in
            let all = WireClass.announcement.properties(in: .latest).joined(separator: ",")
            let plain = try await client.send(.get, "/announcements/2", as: .editor)
            let named = try await client.send(.get, "/announcements/2?fields=\(all)", as: .editor)

            #expect(named.body == plain.body)
            #expect(named.headers[.eTag] != plain.headers[.eTag])
        }
    }
}

extension PropertyFilterTests {
    /// The OpenAPI document's pattern for the header, as a regular expression.
    static func documentedPattern() throws -> NSRegularExpression {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let parameters = try #require((document["components"] as? [String: Any])?["parameters"] as? [String: Any])
        let header = try #require(parameters["Spearal-PropertyFilter"] as? [String: Any])
        let pattern = try #require((header["schema"] as? [String: Any])?["pattern"] as? String)
        return try NSRegularExpression(pattern: pattern)
    }

    static let samples = [
        "", " ", "\t", ",", " , ,", "intranet.Announcement#title,,body", " , \t,intranet.Person#\t name \t, ,", "intranet.Announcement#title", " intranet.Announcement#title , body ", "intranet.Announcement#title,intranet.Person#name",
        "intranet.Person#manager,reports", "intranet.AnnouncementSummary#id",
        "0", "title", "intranet.Announcement", "intranet.Announcement#", "intranet.Nope#title", "intranet.Announcement#nope",
        "#title", ",intranet.Announcement#title,", "intranet.Announcement#title;x",
    ]

    @Test("the OpenAPI pattern of the header admits exactly the values the server accepts", arguments: samples)
    func documentedSyntax(value: String) async throws {
        let pattern = try Self.documentedPattern()
        let documented = pattern.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
        try await withTestServer { _, client in
            let answer = try await client.send(.get, "/people/3", headers: [Self.filter: value])
            #expect((answer.status == .ok) == documented, "\(answer.status) for \"\(value)\", documented \(documented ? "valid" : "invalid")")
        }
    }
}
