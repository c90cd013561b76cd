import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// `GET /events` on a real socket: what each reader is told, resuming with `Last-Event-ID`,
/// the log's horizon, sessions ending, and the clock's own changes.
@Suite("Live streams of changes")
struct EventStreamTests {
    @Test("each reader is told of what they may read: a draft and another's restricted post say nothing, readers added see it appear, readers removed see it go", arguments: TestStorage.all)
    func eachReaderSeesWhatTheyMayRead(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { server, client in
            let port = try #require(client.port)
            let editor = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.editor.token)"])
            let reader = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.reader.token)"])
            let other = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.otherReader.token)"])
            let anonymous = try await EventStreamClient.open(port: port)
            for stream in [editor, reader, other, anonymous] {
                #expect(try await stream.waitForHead().hasPrefix("HTTP/1.1 200"))
                let opening = try #require(try await stream.next())
                #expect(opening.retry.map { (2_000...7_000).contains($0) } == true, "\(opening)")
                #expect(opening.id != nil)
            }

            // One write at a time, each handed to every stream before the next: an event says
            // what its subject is for its reader when it is delivered.
            var editorSees: [Seen] = []
            func step(_ write: () async throws -> Void) async throws {
                try await write()
                editorSees += try await events(editor, count: 1)
                let newest = try await ChangeLog.bounds(on: server.database.database).newest
                while (server.events.slowestPosition ?? 0) < newest { try await Task.sleep(for: .milliseconds(5)) }
            }
            var draft = 0, restricted = 0, open = 0
            try await step { draft = try await create(client, #"{"title":"Draft","status":"draft"}"#) }
            try await step { restricted = try await create(client, #"{"title":"For the reader","readers":[\#(TestUser.reader.id)]}"#) }
            try await step { open = try await create(client, #"{"title":"For everyone"}"#) }
            try await step { try await patch(client, restricted, #"{"readers":[\#(TestUser.reader.id),\#(TestUser.otherReader.id)]}"#) }
            try await step { try await patch(client, restricted, #"{"readers":[\#(TestUser.otherReader.id)]}"#) }
            try await step { try await patch(client, draft, #"{"status":"published"}"#) }
            try await step {
                let deleted = try await client.send(.delete, "/announcements/\(open)")
                #expect(deleted.status == .noContent)
            }

            #expect(editorSees.map(\.kind) == [
                "announcement.created \(draft)", "announcement.created \(restricted)", "announcement.created \(open)",
                "announcement.changed \(restricted)", "announcement.changed \(restricted)", "announcement.changed \(draft)",
                "announcement.deleted \(open)",
            ])
            let readerSees = try await events(reader, count: 6)
            #expect(readerSees.map(\.kind) == [
                "announcement.created \(restricted)", "announcement.created \(open)", "announcement.changed \(restricted)",
                "announcement.deleted \(restricted)", "announcement.created \(draft)", "announcement.deleted \(open)",
            ])
            let otherSees = try await events(other, count: 5)
            #expect(otherSees.map(\.kind) == [
                "announcement.created \(open)", "announcement.created \(restricted)", "announcement.changed \(restricted)",
                "announcement.created \(draft)", "announcement.deleted \(open)",
            ])
            let anonymousSees = try await events(anonymous, count: 3)
            #expect(anonymousSees.map(\.kind) == [
                "announcement.created \(open)", "announcement.created \(draft)", "announcement.deleted \(open)",
            ])
            // Ids grow, and nothing more comes.
            for seen in [editorSees, readerSees, otherSees, anonymousSees] {
                let ids = seen.compactMap { $0.message.id.flatMap(Int64.init) }
                #expect(ids == ids.sorted() && Set(ids).count == ids.count)
            }
            for stream in [editor, reader, other, anonymous] {
                #expect(try await stream.events(within: .milliseconds(300)).isEmpty)
                await stream.close()
            }
        }
    }

    @Test("an event's tag is the one a 2.0 detail read answers that reader (an editor's with readers); a person's is the directory's")
    func tagsMatchTheDetail() async throws {
        try await withTestServer(mode: .live) { _, client in
            let port = try #require(client.port)
            let editor = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.editor.token)"])
            let anonymous = try await EventStreamClient.open(port: port)
            _ = try await editor.next()
            _ = try await anonymous.next()
            let id = try await create(client, #"{"title":"Tagged"}"#)
            let editorEvent = try #require(try await editor.nextEvent())
            let anonymousEvent = try #require(try await anonymous.nextEvent())
            let editorRead = try await client.send(.get, "/announcements/\(id)", version: "2.0", as: .user(.editor))
            let anonymousRead = try await client.send(.get, "/announcements/\(id)", version: "2.0")
            #expect(editorEvent.object?["etag"] as? String == editorRead.headers[.eTag])
            #expect(anonymousEvent.object?["etag"] as? String == anonymousRead.headers[.eTag])
            #expect(editorRead.headers[.eTag] != anonymousRead.headers[.eTag])

            let patched = try await client.send(
                .patch, "/people/1", headers: [.contentType: "application/merge-patch+json"], json: #"{"jobTitle":"Chief Streamer"}"#)
            #expect(patched.status == .ok)
            let personEvent = try #require(try await anonymous.nextEvent())
            let person = try await client.send(.get, "/people/1", version: "2.0")
            #expect(personEvent.event == "person.changed")
            #expect(personEvent.subject == 1)
            #expect(personEvent.object?["etag"] as? String == person.headers[.eTag])
            await editor.close()
            await anonymous.close()
        }
    }

    @Test("reconnecting with Last-Event-ID gives exactly the events missed, in order, once; a bare id moves the resume point past what the reader was not shown", arguments: TestStorage.all)
    func resumesAfterTheLastEvent(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let port = try #require(client.port)
            let first = try await EventStreamClient.open(port: port)
            _ = try await first.next()
            let one = try await create(client, #"{"title":"One"}"#)
            let two = try await create(client, #"{"title":"Two"}"#)
            let seen = try #require(try await first.nextEvent())
            #expect(seen.subject == one)
            // The connection dies after the first event, the second unread.
            await first.close()
            let three = try await create(client, #"{"title":"Three"}"#)
            _ = try await create(client, #"{"title":"Hidden","status":"draft"}"#)
            let four = try await create(client, #"{"title":"Four"}"#)

            let again = try await EventStreamClient.open(port: port, headers: ["Last-Event-ID": try #require(seen.id)])
            let opening = try #require(try await again.next())
            #expect(opening.id == seen.id, "the stream starts where the client was")
            let missed = try await events(again, count: 3)
            #expect(missed.map(\.kind) == [
                "announcement.created \(two)", "announcement.created \(three)", "announcement.created \(four)",
            ])
            _ = try await create(client, #"{"title":"Live again"}"#)
            let live = try #require(try await again.nextEvent())
            #expect(live.event == "announcement.created")
            #expect(try await again.events(within: .milliseconds(300)).isEmpty, "nothing twice")
            await again.close()
        }
    }

    @Test("a Last-Event-ID the log no longer holds, or never gave, starts with reset; a malformed one too; a resume past the horizon is exact")
    func resetPastTheHorizon() async throws {
        try await withTestServer(mode: .live) { server, client in
            let port = try #require(client.port)
            for _ in 0..<4 { _ = try await create(client, #"{"title":"Filler"}"#) }
            let newest = try await ChangeLog.bounds(on: server.database.database).newest
            try await ChangeLog.prune(keeping: 2, olderThan: .distantPast, on: server.database.database)
            while server.events.position != newest { try await Task.sleep(for: .milliseconds(5)) }

            for lastEventID in ["1", "\(newest + 1_000)", "yesterday"] {
                let stream = try await EventStreamClient.open(port: port, headers: ["Last-Event-ID": lastEventID])
                let opening = try #require(try await stream.next())
                #expect(opening.id == "\(newest)")
                let reset = try #require(try await stream.next())
                #expect(reset.event == "reset", "\(lastEventID): \(reset)")
                #expect(reset.id == "\(newest)")
                await stream.close()
            }
            // Right at the horizon: everything after it is still there.
            let stream = try await EventStreamClient.open(port: port, headers: ["Last-Event-ID": "\(newest - 2)"])
            _ = try await stream.next()
            let kept = try await events(stream, count: 2)
            #expect(kept.map { $0.message.id } == ["\(newest - 1)", "\(newest)"])
            await stream.close()
        }
    }

    @Test("logging out ends the stream with a closing event; a stream signed in with the web session's cookie alone works; bad requests are refused")
    func sessionsAndRefusals() async throws {
        try await withTestServer(mode: .live) { _, client in
            let port = try #require(client.port)
            let login = try await client.send(.post, "/login", json: #"{"username":"reader","password":"\#(TestUser.password)"}"#)
            let token = try #require(try login.object()["token"] as? String)
            let byToken = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(token)"])
            let byCookie = try await EventStreamClient.open(port: port, headers: ["Cookie": "\(WebCookies.session)=\(token)"])
            _ = try await byToken.next()
            _ = try await byCookie.next()
            let restricted = try await create(client, #"{"title":"Only the reader","readers":[\#(TestUser.reader.id)]}"#)
            #expect(try await byCookie.nextEvent()?.subject == restricted, "the cookie signs the stream in")
            #expect(try await byToken.nextEvent()?.subject == restricted)

            let logout = try await client.send(.post, "/logout", headers: [.authorization: "Bearer \(token)"])
            #expect(logout.status == .noContent)
            for stream in [byToken, byCookie] {
                let closing = try #require(try await stream.nextEvent())
                #expect(closing.event == "closing")
                #expect(closing.object?["reason"] as? String == "signed-out")
                #expect(closing.id == nil, "the resume point stays")
                #expect(try await stream.next(timeout: .seconds(5)) == nil)
                #expect(stream.isClosed)
            }

            let json = try await client.send(.get, "/events", headers: [.accept: "application/json"])
            #expect(json.status == .notAcceptable)
            let unnamed = try await client.send(.get, "/events", headers: [.accept: "*/*"])
            #expect(unnamed.status == .ok, "a stream is only for who asks for one by name: the others get its first message and an end")
            #expect(unnamed.headers[.contentType] == "text/event-stream; charset=utf-8")
            #expect(unnamed.text.hasPrefix(": intranet events\nretry: ") && unnamed.text.contains("\nid: "))
            #expect(unnamed.text.contains("send Accept: text/event-stream to stay connected"))
            let bare = try await client.send(.get, "/events")
            #expect(bare.status == .ok && bare.text.contains("\nid: "), "no Accept at all: the same")
            let long = try await client.send(
                .get, "/events", headers: [.accept: "text/event-stream", .lastEventID: String(repeating: "9", count: 65)])
            #expect(long.status == .unprocessableContent)
            let revoked = try await client.send(.get, "/events", headers: [.accept: "text/event-stream", .authorization: "Bearer \(token)"])
            #expect(revoked.status == .unauthorized)
        }
    }

    @Test("the clock's changes are events too: a scheduled post appears to readers at its moment, and goes at its expiry")
    func scheduledPostsAppearAndGo() async throws {
        try await withTestServer(mode: .live) { _, client in
            let port = try #require(client.port)
            let reader = try await EventStreamClient.open(port: port, headers: ["Authorization": "Bearer \(TestUser.reader.token)"])
            _ = try await reader.next()
            let format = ISO8601DateFormatter()
            let publishAt = format.string(from: Date().addingTimeInterval(2))
            let expiresAt = format.string(from: Date().addingTimeInterval(4))
            let id = try await create(client, #"{"title":"Soon","publishAt":"\#(publishAt)","expiresAt":"\#(expiresAt)"}"#)
            let appeared = try #require(try await reader.nextEvent(timeout: .seconds(10)))
            #expect(appeared.event == "announcement.created")
            #expect(appeared.subject == id)
            #expect(Date() >= ISO8601DateFormatter().date(from: publishAt)!, "not before its moment")
            // A busy server may hand on the creation itself after the moment: then it says
            // "created" too (what the post is for the reader when sent), and "deleted" still ends it.
            var later: [EventStreamClient.Message] = []
            while later.last?.event != "announcement.deleted", let next = try await reader.nextEvent(timeout: .seconds(10)) {
                later.append(next)
            }
            #expect(later.last?.event == "announcement.deleted")
            #expect(later.allSatisfy { $0.subject == id })
            #expect(later.dropLast().allSatisfy { $0.event == "announcement.created" }, "\(later)")
            await reader.close()
        }
    }

    @Test("a HEAD opens no stream; resuming from further back than half a queue holds ends in reset; a web page's stream needs no signature where the API does")
    func limits() async throws {
        try await withTestServer(mode: .live, configure: { $0.requiresSignature = true }) { server, client in
            let port = try #require(client.port)
            let head = try await RawHTTP.exchange(port: port, requests: [
                "HEAD /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nCookie: \(WebCookies.session)=\(TestUser.reader.token)\r\nConnection: close\r\n\r\n",
            ])
            #expect(head.first?.statusLine == "HTTP/1.1 200 OK")
            try await Task.sleep(for: .milliseconds(200))
            #expect(server.events.streamCount == 0, "a HEAD leaves nothing open")

            // Entries written straight to the log, as 200 writes would: more than half a queue.
            let database = server.database.database
            let entries = (1...200).map { _ in ChangeLogEntry(id: 0, kind: .changed, subject: 2, at: Date()) }
            try await database.transaction { try await ChangeLog.append(entries, on: $0) }
            let newest = try await ChangeLog.bounds(on: database).newest
            let page = try await EventStreamClient.open(
                port: port, headers: ["Cookie": "\(WebCookies.session)=\(TestUser.reader.token)", "Last-Event-ID": "\(newest - 200)"])
            #expect(try await page.waitForHead().hasPrefix("HTTP/1.1 200"), "the page's own stream is not asked for a signature")
            var events: [EventStreamClient.Message] = []
            while events.last?.event != "reset", let next = try await page.nextEvent() { events.append(next) }
            #expect(events.last?.event == "reset")
            #expect(events.last?.id == "\(newest)")
            #expect(events.count <= EventHub.Settings().queueLimit / 2 + 1, "\(events.count)")
            #expect(events.dropLast().allSatisfy { $0.event == "announcement.changed" && $0.subject == 2 })
            await page.close()
            let signed = try await client.send(.get, "/events", headers: [.accept: "text/event-stream", .authorization: "Bearer \(TestUser.reader.token)"])
            #expect(signed.status == .unauthorized, "an API client still signs")
        }
    }

    // MARK: Helpers

    private func create(_ client: some TestClientProtocol, _ json: String) async throws -> Int {
        let created = try await client.send(.post, "/announcements", json: json)
        #expect(created.status == .created, "\(created.text)")
        return try #require(try created.object()["id"] as? Int)
    }

    private func patch(_ client: some TestClientProtocol, _ id: Int, _ json: String) async throws {
        let patched = try await client.send(.patch, "/announcements/\(id)", headers: [.contentType: "application/merge-patch+json"], json: json)
        #expect(patched.status == .ok, "\(patched.text)")
    }

    private struct Seen {
        var message: EventStreamClient.Message
        var kind: String { "\(message.event ?? "-") \(message.subject.map(String.init) ?? "-")" }
    }

    private func events(_ stream: EventStreamClient, count: Int) async throws -> [Seen] {
        var seen: [Seen] = []
        while seen.count < count, let message = try await stream.nextEvent() {
            seen.append(Seen(message: message))
        }
        return seen
    }
}
