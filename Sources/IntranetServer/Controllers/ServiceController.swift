import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import NIOCore

/// The unversioned service routes: `/health` and `/openapi.json` (docs/api.md, "Service routes"), and `/metrics`
/// (404 unless a metrics token is configured).
struct ServiceController: Sendable {
    /// What `/metrics` needs: the token it asks for, the metrics, and how to count sessions.
    struct MetricsRoute: Sendable {
        var token: String
        var metrics: ServerMetrics
        var activeSessions: @Sendable () async throws -> Int
        /// The stored files' count and bytes now.
        var storedFiles: @Sendable () async throws -> StoredFiles.Totals = { StoredFiles.Totals(files: 0, bytes: 0) }
        /// The caches' sizes and evictions now.
        var caches: @Sendable () -> [CacheReport] = { [] }
    }

    let repository: any AnnouncementRepository
    var metricsRoute: MetricsRoute? = nil

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, "/health", health)
        routes.add(.get, "/openapi.json", openAPI)
        routes.add(.get, "/metrics", metrics)
    }

    /// The Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>` only.
    @Sendable func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let metricsRoute else {
            throw APIError.notFound("Metrics are off on this server: it runs without METRICS_TOKEN.")
        }
        let sent = request.headers[.authorization].flatMap(SessionToken.bearer(in:)) ?? ""
        guard Self.sameBytes(sent, metricsRoute.token) else {
            throw AuthService.unauthorized("Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.", invalidToken: !sent.isEmpty)
        }
        let text = metricsRoute.metrics.exposition(
            activeSessions: try await metricsRoute.activeSessions(), stored: try await metricsRoute.storedFiles(), caches: metricsRoute.caches())
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: text))
        )
    }

    /// Compares in time that depends only on the lengths, not on where the first difference is.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await repository.ping()
        } catch {
            context.logger.error("health check failed", metadata: ["error": "\(String(reflecting: error))"])
            throw APIError(status: .serviceUnavailable, detail: "The database does not answer.")
        }
        return Response(
            status: .ok,
            headers: [.contentType: MediaType.json, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#))
        )
    }

    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: MediaType.json],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try OpenAPIDocument.data()))
        )
    }
}
