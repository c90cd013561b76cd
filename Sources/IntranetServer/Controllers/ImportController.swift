import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// `POST /imports/wordpress`: an admin sends a WordPress export (WXR) and gets the import's
/// report.
///
/// The body is written to a temporary file as it arrives (never held in memory) up to
/// `IMPORT_MAX_BYTES`, then parsed as a stream; one import is one transaction, and a malformed
/// file is a 400 naming line and column with nothing imported.
struct ImportController: Sendable {
    let importer: WordPressImporter
    /// An import changes announcements, so cached answers must go.
    let cache: ResponseCache
    let metrics: ServerMetrics?
    let limit: Int

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.post, "/imports/wordpress", importWordPress)
    }

    @Sendable func importWordPress(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try context.requireRole(.admin)
        guard let header = request.headers[.contentType], let range = MediaRange.parseList(header).first,
              range.type == "application" || range.type == "text", range.subtype == "xml"
        else {
            throw APIError(status: .unsupportedMediaType, detail: "Send the WordPress export as application/xml or text/xml.")
        }
        var options = ImportOptions(owner: admin.id)
        options.dryRun = try Self.flag("dryRun", in: request)
        options.includePrivate = try Self.flag("includePrivate", in: request)
        options.includePages = try Self.flag("includePages", in: request)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.contentTooLarge(limit: limit)
        }

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-import-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.spool(request.body, to: path, limit: limit)
        let report: ImportReport
        do {
            report = try await importer.run(path: path, options: options)
        } catch let error as WXRError {
            metrics?.importFinished(nil)
            throw APIError.badRequest("The file is not a WordPress export this server can import: \(error).")
        }
        if !options.dryRun && report.created + report.updated + report.withdrawn > 0 {
            cache.invalidate()
        }
        metrics?.importFinished(report)
        context.logger.info("WordPress import", metadata: [
            "site": "\(report.site)", "dryRun": "\(report.dryRun)", "created": "\(report.created)",
            "updated": "\(report.updated)", "unchanged": "\(report.unchanged)", "withdrawn": "\(report.withdrawn)",
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok,
            headers: [.contentType: MediaType.json, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(report)))
        )
    }

    /// Writes the body to `path` as it arrives; 413 (and nothing kept) past `limit` bytes.
    static func spool(_ body: Hummingbird.RequestBody, to path: String, limit: Int) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let file = FileHandle(forWritingAtPath: path)
        else {
            throw APIError(status: .internalServerError, detail: "The server could not store the upload.")
        }
        defer { try? file.close() }
        var received = 0
        for try await chunk in body {
            received += chunk.readableBytes
            guard received <= limit else { throw APIError.contentTooLarge(limit: limit) }
            try file.write(contentsOf: Data(chunk.readableBytesView))
        }
    }

    /// A `true`/`false` query parameter (absent: false); 400 for anything else.
    static func flag(_ name: String, in request: Request) throws -> Bool {
        let values = request.uri.queryParameters.getAll(name)
        guard let value = values.last else { return false }
        switch value {
        case "true": return true
        case "false": return false
        default: throw APIError.badRequest("The query parameter \(name) must be true or false, not '\(value.prefix(40))'.")
        }
    }
}
