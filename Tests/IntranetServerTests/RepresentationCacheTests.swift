import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Spearal
import Testing
@testable import IntranetServer

/// No client ever gets another format's or another filter's bytes from a cache: neither from
/// the encoded-answer cache nor from the early answers given on the event loop.
@Suite("Representations in the caches")
struct RepresentationCacheTests {
    /// One way of asking for the same resource, and how to recognise its answer.
    struct Variant: Sendable, CustomStringConvertible {
        var name: String
        var query: String
        var headers: [(String, String)]
        var contentType: String
        /// The property names each object of the answer must have exactly.
        var keys: Set<String>

        var description: String { name }

        /// The keys of a reader's detail in the latest version (3.0).
        static let latestDetailKeys: Set<String> = [
            "id", "title", "body", "createdAt", "updatedAt", "status", "publishAt", "expiresAt", "pinned", "pinnedUntil", "important",
            "acknowledgement", "attachments",
        ]

        static let detail: [Variant] = [
            Variant(name: "json", query: "", headers: [], contentType: "application/json", keys: Self.latestDetailKeys),
            Variant(name: "spearal", query: "", headers: [("Accept", "application/spearal")], contentType: "application/spearal",
                    keys: Self.latestDetailKeys),
            Variant(name: "json fields", query: "?fields=title", headers: [], contentType: "application/json", keys: ["id", "title"]),
            Variant(name: "spearal header", query: "", headers: [("Accept", "application/spearal"), ("Spearal-PropertyFilter", "intranet.Announcement#body")],
                    contentType: "application/spearal", keys: ["id", "body"]),
            Variant(name: "json header", query: "", headers: [("Spearal-PropertyFilter", "intranet.Announcement#updatedAt")],
                    contentType: "application/json", keys: ["id", "updatedAt"]),
            Variant(name: "spearal fields", query: "?fields=createdAt", headers: [("Accept", "application/spearal")],
                    contentType: "application/spearal", keys: ["id", "createdAt"]),
        ]

        /// Ways of asking for the 1.0 list (each item's keys).
        static let list: [Variant] = [
            Variant(name: "list json", query: "", headers: [], contentType: "application/json", keys: ["id", "title", "body"]),
            Variant(name: "list spearal", query: "", headers: [("Accept", "application/spearal")], contentType: "application/spearal",
                    keys: ["id", "title", "body"]),
            Variant(name: "list json fields", query: "?fields=title", headers: [], contentType: "application/json", keys: ["id", "title"]),
            Variant(name: "list spearal header", query: "",
                    headers: [("Accept", "application/spearal"), ("Spearal-PropertyFilter", "intranet.AnnouncementSummary#body")],
                    contentType: "application/spearal", keys: ["id", "body"]),
        ]

        /// The property names of every object in a body of this variant's format.
        func objectKeys(_ body: [UInt8]) throws -> [Set<String>] {
            if contentType == "application/json" {
                let json = try JSONSerialization.jsonObject(with: Data(body))
                let objects = (json as? [[String: Any]]) ?? [(json as? [String: Any]) ?? [:]]
                return objects.map { Set($0.keys) }
            }
            switch try SpearalDecoder().decodeValue(from: Data(body)) {
            case .bean(let bean): return [bean.names]
            case .collection(let list):
                return list.elements.map { element in
                    if case .bean(let bean) = element { return bean.names }
                    return []
                }
            default: return []
            }
        }
    }

    @Test("repeated reads of every variant, warm and after a write, give that variant's bytes", arguments: TestStorage.all)
    func warmCaches(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            var first: [String: ByteBuffer] = [:]
            for round in 0..<3 {
                for variant in Variant.detail {
                    let response = try await client.send(.get, "/announcements/2" + variant.query, headers: HTTPFields(variant.headers))
                    #expect(response.headers[.contentType] == variant.contentType, "\(variant) round \(round)")
                    #expect(try variant.objectKeys(Array(response.body.readableBytesView)) == [variant.keys], "\(variant) round \(round)")
                    if let earlier = first[variant.name] {
                        #expect(earlier == response.body, "\(variant) round \(round)")
                    } else {
                        first[variant.name] = response.body
                    }
                }
            }
            _ = try await client.send(.patch, "/announcements/2", headers: [.contentType: "application/merge-patch+json"], json: #"{"body":"<p>after</p>"}"#)
            for variant in Variant.detail {
                let response = try await client.send(.get, "/announcements/2" + variant.query, headers: HTTPFields(variant.headers))
                #expect(try variant.objectKeys(Array(response.body.readableBytesView)) == [variant.keys], "\(variant) after the write")
                if variant.keys.contains("body") {
                    #expect(String(buffer: response.body).contains("<p>after</p>"), "\(variant) after the write")
                }
            }
        }
    }

    @Test("repeated 1.0 list reads of every variant, warm and after a write, give that variant's items", arguments: TestStorage.all)
    func warmListCaches(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            for round in 0..<3 {
                if round == 2 {
                    _ = try await client.send(.post, "/announcements", json: #"{"title":"Seventh","body":"<p>7</p>"}"#)
                }
                for variant in Variant.list {
                    let response = try await client.send(.get, "/announcements" + variant.query, version: "1.0", headers: HTTPFields(variant.headers))
                    let keys = try variant.objectKeys(Array(response.body.readableBytesView))
                    #expect(response.headers[.contentType] == variant.contentType, "\(variant) round \(round)")
                    #expect(keys == Array(repeating: variant.keys, count: round == 2 ? 7 : 6), "\(variant) round \(round)")
                }
            }
        }
    }

    @Test("a revalidation answered early gets its own variant's 304; another variant's tag gets this variant's 200; HEAD too")
    func revalidationPerVariant() async throws {
        try await withTestServer(mode: .live) { server, client in
            var tags: [String: String] = [:]
            for variant in Variant.detail {
                let first = try await client.send(.get, "/announcements/2" + variant.query, headers: HTTPFields(variant.headers))
                let tag = try #require(first.headers[.eTag])
                tags[variant.name] = tag
            }
            #expect(Set(tags.values).count == Variant.detail.count)
            for (index, variant) in Variant.detail.enumerated() {
                let other = Variant.detail[(index + 1) % Variant.detail.count]
                var own = HTTPFields(variant.headers)
                own[.ifNoneMatch] = tags[variant.name]
                var foreign = HTTPFields(variant.headers)
                foreign[.ifNoneMatch] = tags[other.name]
                for _ in 0..<2 {  // the second of each is answered early
                    let revalidated = try await client.send(.get, "/announcements/2" + variant.query, headers: own)
                    let mismatched = try await client.send(.get, "/announcements/2" + variant.query, headers: foreign)
                    let head = try await client.send(.head, "/announcements/2" + variant.query, headers: HTTPFields(variant.headers))
                    #expect(revalidated.status == .notModified && revalidated.headers[.eTag] == tags[variant.name], "\(variant)")
                    #expect(mismatched.status == .ok && mismatched.headers[.eTag] == tags[variant.name], "\(variant)")
                    #expect(try variant.objectKeys(Array(mismatched.body.readableBytesView)) == [variant.keys], "\(variant)")
                    #expect(head.status == .ok && head.headers[.contentType] == variant.contentType && head.body.readableBytes == 0, "\(variant)")
                }
            }
            #expect(server.cache.publicAnswerHits >= Variant.detail.count * 2)
        }
    }

    @Test("pipelined reads of every variant, answered early or by the application, each get their own bytes")
    func pipelined() async throws {
        try await withTestServer(mode: .live) { server, client in
            let port = try #require(client.port)
            // Warm the early answers of every variant, then ask for them all again, interleaved,
            // on one connection, with a write in the middle.
            for variant in Variant.detail {
                _ = try await client.send(.get, "/announcements/2" + variant.query, headers: HTTPFields(variant.headers))
            }
            let hits = server.cache.publicAnswerHits
            let variants = Variant.detail + Variant.detail.reversed()
            var requests = variants.map { request(for: $0) }
            let write = #"{"body":"<p>piped</p>"}"#
            requests.insert(
                "PATCH /announcements/2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestUser.editor.token)\r\n"
                    + "Content-Type: application/merge-patch+json\r\nContent-Length: \(write.utf8.count)\r\n\r\n\(write)", at: variants.count / 2)
            let afterWrite = Variant.detail.map { request(for: $0) }
            requests += afterWrite
            requests[requests.count - 1] = requests[requests.count - 1].replacingOccurrences(of: "Host: x\r\n", with: "Host: x\r\nConnection: close\r\n")

            let answers = try await RawHTTP.exchange(port: port, requests: requests)

            try #require(answers.count == requests.count)
            var expected = variants
            expected.insert(Variant.detail[0], at: variants.count / 2)  // the write's answer (JSON)
            expected += Variant.detail
            for (index, (answer, variant)) in zip(answers, expected).enumerated() where index != variants.count / 2 {
                #expect(answer.header("Content-Type") == variant.contentType, "answer \(index) for \(variant)")
                #expect(try variant.objectKeys(answer.bodyBytes) == [variant.keys], "answer \(index) for \(variant)")
                if index > variants.count / 2, variant.keys.contains("body") {
                    #expect(answer.body.contains("<p>piped</p>"), "answer \(index) for \(variant) reads after the write")
                }
            }
            #expect(server.cache.publicAnswerHits > hits)
        }
    }

    private func request(for variant: Variant) -> String {
        "GET /announcements/2\(variant.query) HTTP/1.1\r\nHost: x\r\n" + variant.headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }
}

extension HTTPFields {
    init(_ pairs: [(String, String)]) {
        self.init()
        for (name, value) in pairs {
            append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
    }
}
