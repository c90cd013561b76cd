import Foundation
import IntranetAPI
import IntranetClient
import RESTRepository
import Testing

/// The SDK's search against the real server on a loopback socket, in JSON and Spearal.
@Suite("Search end to end")
struct SearchEndToEndTests {
    @Test("search(_:) answers typed groups with snippets; groups and paging; a restricted post only for its reader; a blank text is badRequest", arguments: WireFormat.allCases)
    func typedGroups(format: WireFormat) async throws {
        try await withLiveServer { url in
            let editor = try await signedInClient(url, as: "editor", version: .v3_0, format: format)
            let reader = try await signedInClient(url, as: "reader", version: .v3_0, format: format)
            let anonymous = IntranetClient(baseURL: url, apiVersion: .v3_0, format: format)
            let readerID = try await reader.session.me().id
            let secret = try await editor.announcements.create(AnnouncementDraft(title: "Lefèvre's secret plan", readers: .only([readerID])))

            let results = try await anonymous.search("lefevre")
            let person = try #require(results.people?.items.first)
            #expect(person.id == 3 && person.name == "Zoë Lefèvre")
            #expect(person.snippet.marked.contains("Lefèvre"))
            #expect(results.announcements?.items.map(\.id) == [1], "the welcome post names her; the restricted one is not for a signed-out reader")
            #expect(results.announcements?.total == 1)

            let mine = try await reader.search("lefevre", groups: .announcements)
            #expect(mine.people == nil)
            #expect(mine.announcements?.items.first?.id == secret.id, "titles first")
            #expect(mine.announcements?.total == 2)

            let second = try await reader.search("lefevre", groups: .announcements, page: 2, pageSize: 1)
            #expect(second.announcements?.items.map(\.id) == [1])

            await #expect {
                try await anonymous.search("   ")
            } throws: { error in
                guard case RepositoryError.badRequest = error else { return false }
                return true
            }
        }
    }

    @Test("TypeaheadSearch: a newer text cancels the search under way, whose caller gets nil; the newer one answers")
    func typeahead() async throws {
        try await withLiveServer { url in
            let client = IntranetClient(baseURL: url, apiVersion: .v3_0)
            let typeahead = TypeaheadSearch(client.searchRepository, pause: .milliseconds(200))
            let older = Task { try await typeahead.search("lef") }
            try await Task.sleep(for: .milliseconds(50))
            let newer = try await typeahead.search("lefevre")
            #expect(try await older.value == nil, "superseded")
            #expect(newer?.people?.items.first?.name == "Zoë Lefèvre")
            #expect(try await typeahead.search("  ") == nil, "a blank text asks nothing")

            // The caller's own cancellation (the screen closed) cancels the request: nil, at once.
            let closed = Task { try await typeahead.search("lefevre") }
            try await Task.sleep(for: .milliseconds(50))
            closed.cancel()
            let started = ContinuousClock.now
            #expect(try await closed.value == nil)
            #expect(ContinuousClock.now - started < .milliseconds(150), "not after the 200 ms pause and the request")
        }
    }
}
