import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import NIOCore

/// The unversioned service routes: `/health` and `/openapi.json` (API.md §5).
struct ServiceController: Sendable {
    let repository: any AnnouncementRepository

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, "/health", health)
        routes.add(.get, "/openapi.json", openAPI)
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
