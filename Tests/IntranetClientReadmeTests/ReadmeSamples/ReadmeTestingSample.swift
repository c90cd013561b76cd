// The Swift code blocks of the README's "Swift client" section, verbatim, so the sample compiles.
// ReadmeSampleTests checks that the README still contains this exact code.

import IntranetClient
import RESTRepositoryTesting

func firstTitle() async throws -> String? {
    let server = MockTransport(script: [.text(#"[{"id":1,"title":"Hello"}]"#)])
    let intranet = IntranetClient(transport: server, apiVersion: .v2_0)
    let page = try await intranet.announcements.read(page: 1, pageSize: 10)
    let sent = await server.lastRequest  // method, path, query, headers, body
    return sent?.path == "/announcements" ? page.items.first?.title : nil
}
