import Foundation
import HTTPTypes
import IntranetAPI
import IntranetClient
import RESTRepository
import RESTRepositoryTesting

/// A read-only stand-in for the intranet server, answering `GET /announcements` and
/// `GET /announcements/{id}` the way docs/api.md describes, in the version the request asks for.
enum FakeIntranet {
    static let created = Date(timeIntervalSince1970: 1_795_000_000)

    /// Announcement `n` has title `Title n` and body `<p>n</p>`, except every fifth has none.
    static func stored(_ count: Int) -> [AnnouncementV2.Detail] {
        (1...max(count, 1)).prefix(count).map { id in
            AnnouncementV2.Detail(
                id: id, title: "Title \(id)", body: id % 5 == 0 ? nil : "<p>\(id)</p>",
                createdAt: created, updatedAt: created.addingTimeInterval(Double(id)))
        }
    }

    /// A transport serving `count` announcements.
    static func transport(count: Int) -> MockTransport {
        let all = stored(count)
        return MockTransport { request in
            let version = request.headerFields[.acceptVersion] ?? APIVersion.latest.rawValue
            var fields = HTTPFields.of([("API-Version", version), ("Vary", "Accept, Accept-Version")])
            let segments = request.path.split(separator: "/")
            if segments.count == 2, let id = Int(segments[1]) {
                guard let item = all.first(where: { $0.id == id }) else {
                    return .problem(.notFound, title: "Not Found", detail: "No announcement \(id).")
                }
                fields[.eTag] = "\"\(id)-\(item.updatedAt.timeIntervalSince1970)\""
                return version == "1.0"
                    ? .json(AnnouncementV1.Detail(id: id, title: item.title, body: item.body), headerFields: fields)
                    : .json(item, headerFields: fields, encoder: IntranetJSON.encoder())
            }
            return list(all, request: request, version: version, fields: fields)
        }
    }

    private static func list(
        _ all: [AnnouncementV2.Detail], request: RecordedRequest, version: String, fields: HTTPFields
    ) -> MockResponse {
        var fields = fields
        let query = request.queryDictionary
        let page = Int(query["page"] ?? "1") ?? 1
        let size = Int(query["per_page"] ?? "10") ?? 10
        let slice = Array(all.dropFirst((page - 1) * size).prefix(size))
        let last = max(1, (all.count + size - 1) / size)
        var links = ["</announcements?page=1&per_page=\(size)>; rel=\"first\""]
        if page > 1 { links.append("</announcements?page=\(page - 1)&per_page=\(size)>; rel=\"prev\"") }
        if page < last { links.append("</announcements?page=\(page + 1)&per_page=\(size)>; rel=\"next\"") }
        links.append("</announcements?page=\(last)&per_page=\(size)>; rel=\"last\"")
        fields[.xTotal] = "\(all.count)"
        fields[.xPage] = "\(page)"
        fields[.xPerPage] = "\(size)"
        fields[.link] = links.joined(separator: ", ")
        if version == "1.0" {
            return .json(slice.map { AnnouncementV1.ListItem(id: $0.id, title: $0.title, body: $0.body) }, headerFields: fields)
        }
        return .json(slice.map { AnnouncementV2.ListItem(id: $0.id, title: $0.title) }, headerFields: fields)
    }
}

extension HTTPFields {
    /// Header fields from name/value pairs.
    static func of(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        return fields
    }
}

/// A client over a mock transport whose retries never sleep.
func makeIntranet(_ transport: MockTransport, version: APIVersion) -> IntranetClient {
    IntranetClient(
        transport: transport, apiVersion: version,
        configuration: IntranetClientConfiguration(sleep: { _ in }))
}
