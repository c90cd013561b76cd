import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// Serves acknowledgements: `PUT /announcements/{id}/acknowledgement` for readers, and
/// `GET /announcements/{id}/reach` (JSON, Spearal or CSV) for editors and admins. The pending
/// list is the announcement list's (`?pending=true`, ``AnnouncementController``).
struct AcknowledgementController: Sendable {
    let repository: any AnnouncementRepository
    /// Whose views say who may read what, from memory.
    let cache: ResponseCache
    let store: AcknowledgementStore
    let reporter: ReachReporter
    var now: @Sendable () -> Date = { Date() }

    static let acknowledgementPath = "\(AnnouncementController.collectionPath)/{id}/acknowledgement"
    static let reachPath = "\(AnnouncementController.collectionPath)/{id}/reach"

    /// The acknowledgement route, which goes with the versioned API.
    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.put, Self.acknowledgementPath, acknowledge)
    }

    /// The reach route, which negotiates its own format: CSV is not one of the API's.
    func addReachRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.reachPath, reach)
    }

    @Sendable func acknowledge(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { throw AuthService.unauthorized("Sign in to acknowledge an announcement.") }
        let id = try PathID.parse(context, notFound: "No announcement has this id.")
        let receipt = try await acknowledge(id, by: user, round: try Self.round(ListQuery.values(named: "round", in: request.uri.query)))
        let representation = Representation(format: context.wireFormat, version: context.apiVersion)
        var response = try representation.response(receipt)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Acknowledges announcement `id` for `user`, who must be able to read it now (others get
    /// the 404 a read gets): by their view, as every read decides.
    ///
    /// - Throws: ``APIError`` 404 when hidden from `user` or not live; 409 when it asks for no
    ///   acknowledgement.
    ///   409 when it asks for another round than `round`, or (for an editor or admin) when it is
    ///   restricted to an audience they are not in.
    func acknowledge(_ id: Int, by user: User, round: Int? = nil) async throws -> AcknowledgementReceipt {
        let job = try await Self.job(id, by: user, round: round, cache: cache, database: store.database)
        return try Self.receipt(try await store.acknowledge(job))
    }

    /// What acknowledging announcement `id` asks of the store for `user`: by their view, as
    /// every read decides; for an editor or admin (who reads everything), with what they may
    /// read as a reader, since they acknowledge only what is addressed to them.
    static func job(
        _ id: Int, by user: User, round: Int?, cache: ResponseCache, database: any Database
    ) async throws -> AcknowledgementStore.Job {
        let view = try await cache.view(for: user)
        let audience =
            view.visibility == .everything ? try await FluentAnnouncementRepository.resolved(.reader(userID: user.id), on: database) : nil
        return AcknowledgementStore.Job(
            announcementID: id, userID: user.id, visibility: view.visibility, expectedRound: round, audience: audience)
    }

    /// The receipt of an acknowledgement given.
    ///
    /// - Throws: ``APIError`` for each refusal, as ``acknowledge(_:by:round:)`` documents.
    static func receipt(_ outcome: AcknowledgementStore.Outcome) throws -> AcknowledgementReceipt {
        switch outcome {
        case .given(let receipt): return receipt
        case .notAsked: throw APIError.conflict("This announcement does not ask to be acknowledged.")
        case .hidden: throw APIError.notFound()
        case .otherRound(let current):
            throw APIError.conflict("This announcement changed and asks again (round \(current)): read it again, then acknowledge it.")
        case .notAddressed: throw APIError.conflict("This announcement is not addressed to you: only its audience acknowledges it.")
        }
    }

    /// The `round` a confirmation is for (`?round=`, or the web form's field): a whole number
    /// from 1, given once; `nil` when not given.
    ///
    /// - Throws: ``APIError`` 400 otherwise.
    static func round(_ values: [String]) throws -> Int? {
        guard let text = values.first else { return nil }
        guard values.count == 1, text.count <= 10, text.allSatisfy(\.isASCII), let round = Int(text), round >= 1 else {
            throw APIError.badRequest("Query parameter 'round' must be a whole number from 1, given once.")
        }
        return round
    }

    /// Answers like a versioned route (``VersionMiddleware``), errors included: `API-Version`
    /// once a version is chosen, and `Vary` always.
    @Sendable func reach(_ request: Request, context: AppRequestContext) async throws -> Response {
        let wantsCSV = Self.prefersCSV(request.headers)
        let version: APIVersion
        let format: WireFormat
        do {
            (version, format) = wantsCSV ? (APIVersion.latest, WireFormat.json) : try VersionMiddleware.negotiate(request.headers)
        } catch var error as APIError {
            error.headers[.vary] = VersionMiddleware.vary
            throw error
        }
        do {
            var response = try await reachAnswer(context: context, csv: wantsCSV, representation: Representation(format: format, version: version))
            response.headers[.apiVersion] = version.rawValue
            response.headers[.vary] = VersionMiddleware.vary
            return response
        } catch {
            var apiError = APIError(error, maxBodySize: 0)
            apiError.headers[.apiVersion] = version.rawValue
            apiError.headers[.vary] = VersionMiddleware.vary
            throw apiError
        }
    }

    private func reachAnswer(context: AppRequestContext, csv: Bool, representation: Representation) async throws -> Response {
        _ = try context.requireRole(.editor)
        let id = try PathID.parse(context, notFound: "No announcement has this id.")
        guard let announcement = try await repository.find(id: id, visibility: .everything) else { throw APIError.notFound() }
        if csv { return ReachCSV.response(of: announcement, reporter: reporter) }
        var response = try representation.response(try await reporter.report(announcement))
        response.headers[.cacheControl] = "private, no-store"
        return response
    }

    /// Whether `Accept` names `text/csv` (with a quality above 0) at least as high as the API's
    /// formats.
    static func prefersCSV(_ headers: HTTPFields) -> Bool {
        let ranges = MediaRange.parseList(headers[values: .accept].joined(separator: ","))
        guard let csv = ranges.filter({ $0.type == "text" && $0.subtype == "csv" }).map(\.quality).max(), csv > 0 else { return false }
        return WireFormat.allCases.allSatisfy { $0.quality(in: ranges) <= csv }
    }
}
