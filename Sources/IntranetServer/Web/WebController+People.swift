import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import IntranetHTML
import NIOCore

/// The directory's pages: the people list with search, a person's card, and the organisation.
extension WebController {
    @Sendable func directory(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let fields = WebForm.parse(request.uri.query ?? "")
        let query = fields["q"].map { String(WebForm.withoutControlCharacters($0).trimmingCharacters(in: .whitespacesAndNewlines).prefix(WebPages.maxSearchLength)) }
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let number = Int(fields["page"] ?? "1"), number >= 1, number <= 1_000_000 else {
            throw APIError.notFound("There is no such page of people.")
        }
        let size = 20
        return try await page("web|people|\(number)|\(query ?? "")", reads: .people, identity: identity, request: request) {
            let (found, total) = try await people.list(PersonListRequest(offset: (number - 1) * size, limit: size, search: query))
            let pages = max(1, (total + size - 1) / size)
            var context: [String: Any] = ["people": found.map(WebPages.personLine), "hasPeople": !found.isEmpty, "total": total]
            context["resultNoun"] = total == 1 ? "person" : "people"
            if let query { context["query"] = query }
            if pages > 1 {
                var paging: [String: Any] = ["page": number, "pages": pages]
                if number > 1 { paging["previous"] = WebPages.listLink(page: number - 1, query: query, path: "/people") }
                if number < pages { paging["next"] = WebPages.listLink(page: number + 1, query: query, path: "/people") }
                context["paging"] = paging
            }
            return PageFragment(title: query.map { "People: “\($0)”" } ?? "People", main: templates.renderMain("people", context))
        }
    }

    @Sendable func personCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        let id = try PersonController.personID(context)
        return try await page("web|person|\(id)", reads: .people, identity: identity, request: request) {
            guard let person = try await people.find(id: id) else {
                throw APIError.notFound("There is no person at this address.")
            }
            var manager: StoredPerson?
            if let managerID = person.managerID { manager = try await people.find(id: managerID) }
            let reports = try await people.reports(of: [id])[id] ?? []
            return PageFragment(title: person.name, main: templates.renderMain("person", WebPages.personCard(person, manager: manager, reports: reports)))
        }
    }

    @Sendable func organisation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let identity = try await self.identity(request)
        return try await page("web|org", reads: .people, identity: identity, request: request) {
            let (graph, roots) = PersonGraph.organisation(try await people.everyone())
            defer { graph.dismantle() }
            let context: [String: Any] = ["roots": WebPages.orgNodes(roots), "hasPeople": !roots.isEmpty, "count": graph.nodes.count]
            return PageFragment(title: "Organisation", main: templates.renderMain("org", context))
        }
    }}
