import Foundation
import IntranetAPI
import RESTRepository
import Spearal

/// The staff directory: list, search, read, create, replace, patch and delete people, walk a
/// person's managers (``chain(of:)``) and load the whole organisation as an object graph
/// (``org()``).
///
/// The verbs come from the `RESTRepository` protocols, as for announcements:
/// `read(id:)`, `readVersioned(id:)`, `read(page:pageSize:)`, `read(page:pageSize:sortedBy:order:)`,
/// `pages(pageSize:)`, `create(_:)`, `update(_:of:)`, `patch(_:of:)`, `delete(_:)` (guarded by the
/// `ETag` read), and the explicit `…Unconditionally` forms. People read in Spearal carry their
/// manager and reports as summaries, as JSON does with `?expand=manager,reports`.
///
/// ```swift
/// let hits = try await intranet.people.search("lefevre")
/// let chain = try await intranet.people.chain(of: hits.items[0].id)   // her, then her managers
/// let org = try await intranet.people.org()
/// ```
public struct PeopleRepository: Creatable, Sortable, Updatable, Patchable, Deletable {
    /// Person ids are integers.
    public typealias ID = Int
    /// A member: the shared `Person`.
    public typealias Entity = Person
    /// A list item is the whole person.
    public typealias ListItem = Person
    /// Creating sends every field.
    public typealias Draft = PersonDraft
    /// Replacing (`PUT`) sends every field; absent optional ones become `null`.
    public typealias Replacement = PersonDraft
    /// Patching sends only the fields mentioned.
    public typealias Patch = PersonPatch

    /// What the server sorts people by (`sort=`).
    public enum SortField: String, Sendable, CaseIterable {
        /// The name, alphabetically (the default order).
        case name
        /// The id: the order they were added in.
        case id
        /// The e-mail address.
        case email
        /// The job title.
        case jobTitle
        /// The department.
        case department
    }

    /// Where a deleted person's reports go.
    public enum ReportsDestination: Sendable, Equatable {
        /// To this person (by id).
        case person(Int)
        /// To no one: they move to the top of the organisation.
        case top
    }

    /// A link of a person whose summary a read can embed (`?expand=`).
    public enum Link: String, Sendable, CaseIterable {
        /// The manager: `Person.manager`.
        case manager
        /// The reports: `Person.reports`.
        case reports
    }

    /// The client sending this repository's requests.
    public let client: RESTClient
    /// `/people`.
    public let path = "/people"

    /// Creates the repository.
    ///
    /// - Parameter client: the client to send through.
    public init(client: RESTClient) {
        self.client = client
    }

    /// One page of the people whose name, e-mail, job title or department contains `text`,
    /// ignoring case and accents (`GET /people?q=`), in name order.
    ///
    /// - Parameters:
    ///   - text: what to look for (at most 200 characters; the server trims it).
    ///   - page: the 1-based page number.
    ///   - pageSize: the number of people per page.
    /// - Throws: a `RepositoryError`.
    public func search(_ text: String, page: Int = 1, pageSize: Int = 20) async throws -> Page<Person> {
        try await read(page: page, pageSize: pageSize, extraQuery: [URLQueryItem(name: "q", value: text)])
    }

    /// One person with the summaries of their manager and reports embedded
    /// (`GET /people/{id}?expand=manager,reports`), for a card that names them.
    ///
    /// - Parameters:
    ///   - id: the person's id.
    ///   - links: the links to embed (Spearal answers carry both anyway).
    /// - Throws: a `RepositoryError`; `RepositoryError.notFound` for an unknown id.
    public func read(id: Int, expanding links: Set<Link>) async throws -> Person {
        let expand = Link.allCases.filter(links.contains).map(\.rawValue).joined(separator: ",")
        let query = expand.isEmpty ? [] : [URLQueryItem(name: "expand", value: expand)]
        return try await client.value(RESTRequest(.get, path: path(for: id), query: query), as: Person.self)
    }

    /// The person and their managers up to the top, in that order (`GET /people/{id}/chain`).
    ///
    /// - Parameter id: the person's id.
    /// - Throws: a `RepositoryError`; `RepositoryError.notFound` for an unknown id.
    public func chain(of id: Int) async throws -> [Person] {
        try await client.list(RESTRequest(.get, path: path(for: id) + "/chain"), as: Person.self)
    }

    /// The whole organisation (`GET /org`) as an ``OrgChart``: the same object graph whichever
    /// format the client speaks (from Spearal's shared references or from JSON's nested tree).
    ///
    /// - Throws: a `RepositoryError`; `RepositoryError.undecodable` for an answer that is not an
    ///   org chart.
    public func org() async throws -> OrgChart {
        let response = try await client.send(RESTRequest(.get, path: "/org"))
        let contentType = response.headerFields[.contentType] ?? ""
        do {
            guard contentType.hasPrefix(WireFormat.spearal.mediaType) else {
                return OrgChart(tree: try IntranetJSON.decoder().decode([OrgChartNode].self, from: response.body))
            }
            // An organisation is deeper than most messages: a bean and its reports per level.
            let value = try SpearalDecoder(options: SpearalDecodingOptions(maxDepth: 512)).decodeValue(from: response.body)
            defer { value.dismantle() }
            return try OrgChart(spearal: value)
        } catch {
            throw RepositoryError.undecodable(response.details, DecodingFailure(error, isList: true))
        }
    }

    /// Deletes a person who may have reports, moving the reports first, in one transaction on
    /// the server (`DELETE /people/{id}?reassignTo=`).
    ///
    /// - Parameters:
    ///   - id: the person's id.
    ///   - destination: where the reports go.
    ///   - ifMatch: the entity tag the person must still have, or `nil` for none.
    /// - Throws: a `RepositoryError`: `unprocessable` when the reports cannot go there (the
    ///   person does not exist, or works under the one deleted); a stale tag is a
    ///   `VersionConflict`.
    public func delete(id: Int, reassigningReportsTo destination: ReportsDestination, ifMatch: String? = nil) async throws {
        let target = switch destination {
        case .person(let person): String(person)
        case .top: "none"
        }
        let request = RESTRequest(.delete, path: path(for: id), query: [URLQueryItem(name: "reassignTo", value: target)])
            .setting(.ifMatch, to: ifMatch)
        try await reportingConflict(id: id) {
            try await client.perform(request)
        }
    }
}
