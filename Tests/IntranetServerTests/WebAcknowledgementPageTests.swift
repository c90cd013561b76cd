import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

/// Acknowledgements in the browser, without script: the form on the page, each reader's own
/// page, the "to acknowledge" list, the editor's form and reach page.
@Suite("The web front end: acknowledgements")
struct WebAcknowledgementPageTests {
    @Test("the page asks a signed-in reader with a form; after it, that reader's page says when, another reader's still asks, signed out asks to sign in", arguments: TestStorage.all)
    func button(storage: TestStorage) async throws {
        try await withTestServer(storage, mode: .live) { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Fire drill","acknowledgement":{"required":true,"dueAt":"2030-01-15T09:00:00Z"}}"#)
            let before = try await client.page("/announcements/\(id)", as: .reader)
            #expect(before.text.contains(#"<form method="post" action="/announcements/\#(id)/acknowledgement">"#))
            #expect(before.text.contains("I have read and understood"))
            #expect(before.text.contains(#"<time datetime="2030-01-15T09:00:00Z">"#))
            #expect(before.headers[.cacheControl] == "no-store", "a reader's own page")
            #expect(try await client.page("/acknowledgements", as: .reader).text.contains(#"<a href="/announcements/\#(id)">Fire drill</a>"#))

            let forged = try await client.form("/announcements/\(id)/acknowledgement", [], as: nil, cookie: "\(WebCookies.session)=\(TestUser.reader.token)")
            #expect(forged.status == .forbidden, "no CSRF token: nothing given")
            let posted = try await client.form("/announcements/\(id)/acknowledgement", [], as: .reader)
            #expect(posted.status == .seeOther && posted.headers[.location] == "/announcements/\(id)")
            let after = try await client.page("/announcements/\(id)", as: .reader).text
            #expect(after.contains("You confirmed you have read and understood it on"))
            #expect(!after.contains("I have read and understood</button>"))
            #expect(try await client.page("/acknowledgements", as: .reader).text.contains("Nothing waits for your confirmation."))

            let other = try await client.page("/announcements/\(id)", as: .otherReader).text
            #expect(other.contains("I have read and understood") && !other.contains("You confirmed"))
            let signedOut = try await client.page("/announcements/\(id)").text
            #expect(signedOut.contains("to confirm.") && !signedOut.contains("I have read and understood</button>"))
            let plain = try await client.page("/announcements/1", as: .reader).text
            #expect(!plain.contains(#"<section class="acknowledgement"#), "a post that asks nothing has no section")
        }
    }

    @Test("a reader who may not read it, or a post that asks nothing, gets the error page; nothing is counted")
    func refused() async throws {
        try await withTestServer { server, client in
            let hidden = try await client.createAnnouncement(#"{"title":"Board","readers":[\#(TestUser.otherReader.id)],"acknowledgement":{"required":true}}"#)
            #expect(try await client.form("/announcements/\(hidden)/acknowledgement", [], as: .reader).status == .notFound)
            #expect(try await client.form("/announcements/1/acknowledgement", [], as: .reader).status == .conflict)
            #expect(try await AcknowledgementModel.query(on: server.database.database).count() == 0)
        }
    }

    @Test("the editor's form asks, sets a due date in the form's zone and starts a new round; the reach page shows a bar per department and links the CSV")
    func editorFormAndReach() async throws {
        try await withTestServer(mode: .live) { _, client in
            let editor = try await WebPublishingPageTests.signIn(client, as: .editor)
            let created = try await editor.post(client, "/announcements", WebPublishingPageTests.fields(title: "Leave policy", [
                ("acknowledgementFields", "1"), ("ackRequired", "1"), ("ackDueAt", "2030-02-01T10:00"), ("zone", "Europe/Lisbon"),
            ]))
            #expect(created.status == .seeOther)
            let id = try #require(Int(created.headers[.location]?.split(separator: "/").last ?? ""))
            let stored = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            let asked = try #require(stored["acknowledgement"] as? [String: Any])
            #expect(asked["dueAt"] as? String == "2030-02-01T10:00:00.000Z" && asked["round"] as? Int == 1)
            let form = try await editor.get(client, "/announcements/\(id)/edit").text
            #expect(form.contains(#"name="ackRequired" value="1" checked"#) && form.contains("round 1 becomes round 2"))
            #expect(try await client.form("/announcements/\(id)/acknowledgement", [], as: .reader).status == .seeOther)

            let resaved = try await editor.post(client, "/announcements/\(id)", WebPublishingPageTests.fields(title: "Leave policy", [
                ("acknowledgementFields", "1"), ("ackRequired", "1"), ("ackDueAt", "2030-02-01T10:00"), ("zone", "Europe/Lisbon"),
                ("revision", "1"),
            ]))
            #expect(resaved.status == .seeOther, "\(resaved.text)")
            var reach = try await editor.get(client, "/announcements/\(id)/reach").text
            #expect(reach.contains(#"<span class="label">Confirmed</span> <strong>1</strong>"#), "saving again keeps the round")
            #expect(reach.contains(#"<meter min="0" max="4" value="1" aria-hidden="true"></meter> <span class="percent">25 %</span>"#), "\(reach)")
            #expect(reach.contains(#"href="/announcements/\#(id)/reach.csv""#))
            let csv = try await editor.get(client, "/announcements/\(id)/reach.csv")
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true && csv.text.hasPrefix("name,email,department,acknowledged_at\r\n"))

            _ = try await editor.post(client, "/announcements/\(id)", WebPublishingPageTests.fields(title: "Leave policy", [
                ("acknowledgementFields", "1"), ("ackRequired", "1"), ("ackNewRound", "1"), ("revision", "2"),
            ]))
            reach = try await editor.get(client, "/announcements/\(id)/reach").text
            #expect(reach.contains("round 2") && reach.contains(#"<span class="label">Confirmed</span> <strong>0</strong>"#), "a new round asks everyone again")

            _ = try await editor.post(client, "/announcements/\(id)", WebPublishingPageTests.fields(title: "Leave policy", [
                ("acknowledgementFields", "1"), ("revision", "3"),
            ]))
            let stopped = try await client.send(.get, "/announcements/\(id)", as: .editor).object()
            #expect(stopped["acknowledgement"] is NSNull, "unticked: no longer asked")
            #expect(try await client.page("/announcements/\(id)/reach", as: .reader).status == .forbidden)
        }
    }
}
