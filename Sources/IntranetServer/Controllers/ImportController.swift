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
///
/// It brings no media: a server downloading from whatever hosts an uploaded file names could be
/// pointed at its own network, and the request would stay open for every download. The media
/// come with `intranet-server import wordpress --media-dir|--fetch-media` on the server
/// machine; a body changed by an API import still points to the media brought before.
struct ImportController: Sendable {
    let importer: WordPressImporter
    let metrics: ServerMetrics?
    let limit: Int
    /// Imports in flight, named by their clients.
    let board: ImportProgressBoard

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.post, "/imports/wordpress", importWordPress)
        routes.add(.post, "/imports/progress", reserveProgress)
        routes.add(.get, "/imports/progress/{id}", progress)
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
        options.includeScheduled = try Self.flag("includeScheduled", in: request)
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit {
            throw APIError.contentTooLarge(limit: limit)
        }
        let progressID = try request.headers[.importProgressID].map { id in
            guard ImportProgressBoard.isWellFormed(id) else {
                throw APIError.badRequest("\(HeaderName.importProgressID) must be an id from POST /imports/progress (32 hexadecimal digits).")
            }
            guard board.begin(id, owner: admin.id, totalBytes: declared) else {
                throw APIError(
                    status: .conflict,
                    detail: "\(HeaderName.importProgressID) \(id) is not a reservation of yours waiting for an upload: reserve one for each import (POST /imports/progress).")
            }
            return id
        }
        var succeeded = false
        defer { progressID.map { board.end($0, stage: succeeded ? .finished : .failed) } }

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("intranet-import-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.spool(request.body, to: path, limit: limit) { received in
            progressID.map { id in board.update(id) { $0.bytesReceived = received } }
        }
        let report: ImportReport
        do {
            let board = self.board
            report = try await importer.run(path: path, options: options) { progress in
                progressID.map { id in
                    board.update(id) {
                        $0.stage = .importing
                        $0.bytesParsed = progress.bytes
                        $0.itemsRead = progress.items
                    }
                }
            }
        } catch let error as WXRError {
            metrics?.importFinished(nil)
            throw APIError.badRequest("The file is not a WordPress export this server can import: \(error).")
        }
        succeeded = true
        metrics?.importFinished(report)
        context.logger.info("WordPress import", metadata: [
            "site": "\(report.site)", "dryRun": "\(report.dryRun)", "created": "\(report.created)",
            "updated": "\(report.updated)", "unchanged": "\(report.unchanged)", "withdrawn": "\(report.withdrawn)",
        ])
        return try Self.json(report, status: .ok)
    }

    /// Reserves a progress id for the admin's next import.
    @Sendable func reserveProgress(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try context.requireRole(.admin)
        guard let id = board.reserve(for: admin.id), var status = board.status(id) else {
            throw APIError(status: .serviceUnavailable, detail: "Too many imports are being followed on this server; try again in a minute.")
        }
        status.id = id
        var response = try Self.json(status, status: .created)
        response.headers[.location] = ImportProgressBoard.pathPrefix + id
        return response
    }

    /// How far the import with this progress id is; the id is the key (no session needed).
    @Sendable func progress(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), ImportProgressBoard.isWellFormed(id), let status = board.status(id) else {
            throw APIError.notFound("No import has this progress id (an ended one is kept for a minute, an unused one ten).")
        }
        return try Self.json(status, status: .ok)
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: status,
            headers: [.contentType: MediaType.json, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value)))
        )
    }

    /// Writes the body to `path` as it arrives; 413 (and nothing kept) past `limit` bytes.
    static func spool(
        _ body: Hummingbird.RequestBody, to path: String, limit: Int, received: (Int) -> Void = { _ in }
    ) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let file = FileHandle(forWritingAtPath: path)
        else {
            throw APIError(status: .internalServerError, detail: "The server could not store the upload.")
        }
        defer { try? file.close() }
        let receivedSoFar = received
        var received = 0
        for try await chunk in body {
            received += chunk.readableBytes
            guard received <= limit else { throw APIError.contentTooLarge(limit: limit) }
            try file.write(contentsOf: Data(chunk.readableBytesView))
            receivedSoFar(received)
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
