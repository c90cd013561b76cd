import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Serves the staff directory: `/people`, `/people/{id}`, `/people/{id}/chain` and `/org`, in
/// every API version (people have one shape in all) and both formats.
struct PersonController: Sendable {
    let repository: any PersonRepository
    let cache: ResponseCache
    /// The largest request body accepted, in bytes.
    let maxBodySize: Int

    static let collectionPath = "/people"
    static let notFound = "No person has this id."
    /// Longest `q` accepted, in characters.
    static let maxSearchLength = 200

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.collectionPath, list)
        routes.add(.post, Self.collectionPath, create)
        routes.add(.get, "\(Self.collectionPath)/{id}", show)
        routes.add(.put, "\(Self.collectionPath)/{id}", replace)
        routes.add(.patch, "\(Self.collectionPath)/{id}", patch)
        routes.add(.delete, "\(Self.collectionPath)/{id}", delete)
        routes.add(.get, "\(Self.collectionPath)/{id}/chain", chain)
        routes.add(.get, "/org", organisation)
    }

    // MARK: Reads

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let rawQuery = request.uri.query ?? ""
        let query = try ListQuery.parse(rawQuery, sorts: PersonListRequest.SortKey.allCases.map(\.rawValue), extraNames: ["q", "expand"])
        let search = PersonRules.normalized(query.extra["q"] ?? "")
        guard search.unicodeScalars.count <= Self.maxSearchLength else {
            throw APIError.badRequest("Query parameter 'q' is longer than \(Self.maxSearchLength) characters (Unicode code points).")
        }
        guard !search.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("Query parameter 'q' must not contain control characters.")
        }
        let expansion = try PersonExpansion(query.extra["expand"])
        let representation = try Representation(request, context: context, primary: .person)
        let key = "people|list|\(representation.version.rawValue)|\(representation.cacheKey)|\(Self.audience(context))|\(rawQuery)"
        let entry = try await cached(key, context: context) {
            var page = PersonListRequest(
                sort: PersonListRequest.SortKey(rawValue: query.sortName ?? "") ?? .name, isDescending: query.request.isDescending,
                offset: query.request.offset, limit: query.request.limit)
            page.search = search.isEmpty ? nil : String(search)
            let (people, total) = try await repository.list(page)
            let items = try await neighbourhoods(of: people)
            let links = PageLinks(query: query, path: Self.collectionPath, total: total)
            return try PersonRepresentation.list(items, as: representation, expansion: expansion, links: links)
        }
        return entry.response(for: request)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.personID(context)
        let expansion = try PersonExpansion(Self.parameter("expand", in: request))
        let representation = try Representation(request, context: context, primary: .person)
        let key = "people|detail|\(representation.version.rawValue)|\(representation.cacheKey)|\(Self.audience(context))|\(expansion.cacheKey)|\(id)"
        let entry = try await cached(key, context: context) {
            guard let person = try await repository.find(id: id) else { throw APIError.notFound(Self.notFound) }
            return try PersonRepresentation.detail(try await neighbourhoods(of: [person])[0], as: representation, expansion: expansion)
        }
        return entry.response(for: request)
    }

    @Sendable func chain(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.personID(context)
        let expansion = try PersonExpansion(Self.parameter("expand", in: request))
        let representation = try Representation(request, context: context, primary: .person)
        let key = "people|chain|\(representation.version.rawValue)|\(representation.cacheKey)|\(Self.audience(context))|\(expansion.cacheKey)|\(id)"
        let entry = try await cached(key, context: context) {
            guard let chain = try await repository.chain(of: id) else { throw APIError.notFound(Self.notFound) }
            let reports = representation.format == .json ? try await repository.reports(of: chain.map(\.id)) : [:]
            return try PersonRepresentation.chain(chain, reports: reports, as: representation, expansion: expansion)
        }
        return entry.response(for: request)
    }

    @Sendable func organisation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let representation = try Representation(request, context: context, primary: .person)
        let key = "people|org|\(representation.version.rawValue)|\(representation.cacheKey)|\(Self.audience(context))"
        let entry = try await cached(key, context: context) {
            try PersonRepresentation.organisation(try await repository.everyone(), as: representation)
        }
        return entry.response(for: request)
    }

    /// Each person with their manager and reports, in two queries for the whole page.
    private func neighbourhoods(of people: [StoredPerson]) async throws -> [PersonRepresentation.Neighbourhood] {
        try await PersonRepresentation.neighbourhoods(of: people, in: repository)
    }

    /// The cached answer for `key`, or a fresh one built and cached: the directory is the same
    /// for everyone who may read it, but a signed-in caller's answer is kept `private`.
    private func cached(_ key: String, context: AppRequestContext, build: () async throws -> CachedResponse) async throws -> CachedResponse {
        try await cache.answer(for: key, dependsOn: .people) {
            var fresh = try await build()
            fresh.headers[.cacheControl] = context.user == nil ? "public, no-cache" : "private, no-cache"
            return fresh
        }
    }

    private static func audience(_ context: AppRequestContext) -> String {
        context.user == nil ? "public" : "private"
    }

    // MARK: Writes

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.editor)
        let representation = try Representation(request, context: context, primary: .person)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: false)
        let content = try PersonInput.draft(from: json)
        let created = try await repository.create(content)
        var entry = try PersonRepresentation.detail(try await neighbourhoods(of: [created])[0], as: representation, expansion: PersonExpansion())
        entry.headers[.location] = "\(Self.collectionPath)/\(created.id)"
        return entry.response(status: .created)
    }

    @Sendable func replace(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.personID(context)
        _ = try context.requireRole(.editor)
        let representation = try Representation(request, context: context, primary: .person)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: false)
        let content = try PersonInput.draft(from: json)
        let precondition = EntityTag.precondition(request.headers[.ifMatch], id: id, kind: PersonRepresentation.tagKind)
        let updated = try await repository.update(id: id, precondition: precondition) { _ in content }
        return try PersonRepresentation.detail(try await neighbourhoods(of: [updated])[0], as: representation, expansion: PersonExpansion())
            .response(status: .ok)
    }

    @Sendable func patch(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.personID(context)
        _ = try context.requireRole(.editor)
        let representation = try Representation(request, context: context, primary: .person)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: true)
        let merge = try PersonInput.mergePatch(from: json)
        let precondition = EntityTag.precondition(request.headers[.ifMatch], id: id, kind: PersonRepresentation.tagKind)
        let updated = try await repository.update(id: id, precondition: precondition, change: merge)
        return try PersonRepresentation.detail(try await neighbourhoods(of: [updated])[0], as: representation, expansion: PersonExpansion())
            .response(status: .ok)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.personID(context)
        _ = try context.requireRole(.editor)
        let reassignment = try Self.reassignment(Self.parameter("reassignTo", in: request))
        let precondition = EntityTag.precondition(request.headers[.ifMatch], id: id, kind: PersonRepresentation.tagKind)
        try await repository.delete(id: id, precondition: precondition, reassignment: reassignment)
        return Response(status: .noContent)
    }

    // MARK: Parameters

    /// The `{id}` of the path (``PathID``).
    static func personID(_ context: AppRequestContext) throws -> Int {
        try PathID.parse(context, notFound: notFound)
    }

    /// `?reassignTo=`: a person's id or `none`; absent is `nil`.
    ///
    /// - Throws: ``APIError`` 400 for anything else.
    static func reassignment(_ value: String?) throws -> Reassignment? {
        guard let value else { return nil }
        if value == "none" { return Reassignment.none }
        guard let id = Int(value), id > 0, String(id) == value else {
            throw APIError.badRequest("Query parameter 'reassignTo' must be a person's id or none, not '\(value.prefix(40))'.")
        }
        return .person(id)
    }

    /// The decoded value of the query parameter `name`, refusing it twice.
    ///
    /// - Throws: ``APIError`` 400 when it is given more than once.
    static func parameter(_ name: String, in request: Request) throws -> String? {
        let values = ListQuery.values(named: name, in: request.uri.query)
        guard values.count <= 1 else { throw APIError.badRequest("Query parameter '\(name)' is given more than once.") }
        return values.first
    }
}
