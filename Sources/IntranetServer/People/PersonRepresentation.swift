import Foundation
import HTTPTypes
import IntranetAPI
import NIOCore

/// What `?expand=` asks JSON answers to embed (Spearal answers carry the people themselves).
struct PersonExpansion: Sendable, Equatable {
    var manager = false
    var reports = false

    /// No expansions.
    init() {}

    /// The expansions of a raw `expand` value: `manager`, `reports` or both, comma-separated.
    ///
    /// - Throws: ``APIError`` 400 naming anything else.
    init(_ value: String?) throws {
        guard let value else { return }
        for name in value.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmed() }) {
            switch name {
            case "manager": manager = true
            case "reports": reports = true
            default:
                throw APIError.badRequest("Query parameter 'expand' may name manager and reports, not '\(name.prefix(40))'.")
            }
        }
    }

    var cacheKey: String { (manager ? "m" : "") + (reports ? "r" : "") }
}

/// Encodes people in the negotiated format, with their `ETag` and headers: JSON links people
/// by id (and embeds summaries on request), Spearal by reference (``PersonGraph``).
enum PersonRepresentation {
    /// What starts the third part of a person's entity tag (`"3.1.p…"`).
    static let tagKind: Character = "p"

    /// A person, their manager and their reports (in name order).
    struct Neighbourhood: Sendable {
        var person: StoredPerson
        var manager: StoredPerson?
        var reports: [StoredPerson]
    }

    /// Each person with their manager and reports, in two queries for the whole page.
    static func neighbourhoods(of people: [StoredPerson], in repository: any PersonRepository) async throws -> [Neighbourhood] {
        var known = Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let missingManagers = Array(Set(people.compactMap(\.managerID)).subtracting(known.keys))
        // Two independent queries: on PostgreSQL they run side by side on two connections.
        async let reportsOfPage = repository.reports(of: people.map(\.id))
        async let managers = repository.people(ids: missingManagers)
        let reports = try await reportsOfPage
        for manager in try await managers {
            known[manager.id] = manager
        }
        return people.map { person in
            Neighbourhood(
                person: person, manager: person.managerID.flatMap { known[$0] }, reports: reports[person.id] ?? [])
        }
    }

    /// The tag a 2.0 JSON detail read of person `id` answers (what live streams announce), or
    /// `nil` when no such person exists.
    static func detailTag(of id: Int, in repository: any PersonRepository) async throws -> String? {
        guard let person = try await repository.find(id: id) else { return nil }
        let item = try await neighbourhoods(of: [person], in: repository)[0]
        return try detail(item, as: Representation(format: .json, version: .v2_0), expansion: PersonExpansion()).etag
    }

    static func detail(_ item: Neighbourhood, as representation: Representation, expansion: PersonExpansion) throws -> CachedResponse {
        let body: ByteBuffer
        switch representation.format {
        case .json:
            body = try representation.encode(json(item, expansion: expansion))
        case .spearal:
            let graph = PersonGraph()
            let node = graph.node(item.person)
            node.carriesManager = true
            node.carriesReports = true
            node.manager = item.manager.map(graph.node)
            node.reports = item.reports.map { report in
                let reportNode = graph.node(report)
                reportNode.carriesManager = true
                reportNode.manager = node
                return reportNode
            }
            body = ByteBuffer(bytes: try graph.encode(node, with: representation))
        }
        // The revision changes with the person; the rest of the tag with their reports.
        let etag = EntityTag.forRevision(
            id: item.person.id, revision: item.person.revision, content: body.readableBytesView, suffix: representation.tagSuffix)
        return CachedResponse(body: body, etag: etag, headers: headers(representation, etag: etag))
    }

    /// A page of people; `neighbours` holds their managers and reports.
    static func list(
        _ page: [Neighbourhood], as representation: Representation, expansion: PersonExpansion, links: PageLinks
    ) throws -> CachedResponse {
        let body: ByteBuffer
        switch representation.format {
        case .json:
            body = try representation.encode(page.map { json($0, expansion: expansion) })
        case .spearal:
            let graph = PersonGraph()
            let nodes = page.map { item in
                let node = graph.node(item.person)
                node.carriesManager = true
                node.carriesReports = true
                return node
            }
            for (item, node) in zip(page, nodes) {
                node.manager = item.manager.map(graph.node)
                node.reports = item.reports.map(graph.node)
            }
            body = ByteBuffer(bytes: try graph.encode(nodes, with: representation))
        }
        let etag = EntityTag.forContent(body.readableBytesView, suffix: representation.tagSuffix)
        var headers = headers(representation, etag: etag)
        headers[.total] = String(links.total)
        headers[.page] = String(links.page)
        headers[.perPage] = String(links.perPage)
        headers[.link] = links.link
        return CachedResponse(body: body, etag: etag, headers: headers)
    }

    /// A person and their managers up to the top; `reports` holds the report ids of each.
    static func chain(_ chain: [StoredPerson], reports: [Int: [StoredPerson]], as representation: Representation, expansion: PersonExpansion)
        throws -> CachedResponse
    {
        let body: ByteBuffer
        switch representation.format {
        case .json:
            let byID = Dictionary(chain.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            body = try representation.encode(chain.map { person in
                json(Neighbourhood(person: person, manager: person.managerID.flatMap { byID[$0] }, reports: reports[person.id] ?? []), expansion: expansion)
            })
        case .spearal:
            let graph = PersonGraph()
            let nodes = chain.map(graph.node)
            for (index, node) in nodes.enumerated() {
                node.carriesManager = true
                node.manager = index + 1 < nodes.count ? nodes[index + 1] : nil
            }
            body = ByteBuffer(bytes: try graph.encode(nodes, with: representation))
        }
        let etag = EntityTag.forContent(body.readableBytesView, suffix: representation.tagSuffix)
        return CachedResponse(body: body, etag: etag, headers: headers(representation, etag: etag))
    }

    /// Everyone: in JSON a tree nested through `reports`, in Spearal one graph.
    static func organisation(_ everyone: [StoredPerson], as representation: Representation) throws -> CachedResponse {
        let (graph, roots) = PersonGraph.organisation(everyone)
        let body: ByteBuffer
        switch representation.format {
        case .json:
            defer { graph.dismantle() }
            body = try representation.encode(roots.map(chartNode))
        case .spearal:
            body = ByteBuffer(bytes: try graph.encode(roots, with: representation))
        }
        let etag = EntityTag.forContent(body.readableBytesView, suffix: representation.tagSuffix)
        return CachedResponse(body: body, etag: etag, headers: headers(representation, etag: etag))
    }

    private static func chartNode(_ node: PersonGraphNode) -> OrgChartNode {
        OrgChartNode(
            person: json(Neighbourhood(person: node.person, manager: nil, reports: node.reports.map(\.person)), expansion: PersonExpansion()),
            reports: node.reports.map(chartNode))
    }

    static func json(_ item: Neighbourhood, expansion: PersonExpansion) -> Person {
        let person = item.person
        return Person(
            id: person.id, name: person.name, email: person.email, jobTitle: person.jobTitle, department: person.department,
            phone: person.phone, location: person.location, managerId: person.managerID, reportIds: item.reports.map(\.id),
            userId: person.userID, manager: expansion.manager ? item.manager?.summary : nil,
            reports: expansion.reports ? item.reports.map(\.summary) : nil)
    }

    private static func headers(_ representation: Representation, etag: String) -> HTTPFields {
        [
            .contentType: representation.contentType,
            .eTag: etag,
            .apiVersion: representation.version.rawValue,
            .vary: VersionMiddleware.vary,
        ]
    }
}
