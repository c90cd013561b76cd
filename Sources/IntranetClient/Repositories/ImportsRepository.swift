import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository

/// Brings content from other systems into the intranet (admins only): `POST /imports/wordpress`.
public struct ImportsRepository: Sendable {
    /// The client requests go through.
    public let client: RESTClient

    /// Creates the repository over a client.
    public init(client: RESTClient) {
        self.client = client
    }

    /// What an import may do besides importing published posts.
    public struct WordPressOptions: Sendable, Equatable {
        /// Report what would happen and change nothing.
        public var dryRun: Bool
        /// Also import private and password-protected posts, readable only by the signed-in admin.
        public var includePrivate: Bool
        /// Also import published pages.
        public var includePages: Bool
        /// Also import scheduled posts, published at their date.
        public var includeScheduled: Bool

        /// Options; by default only published posts, for real.
        public init(dryRun: Bool = false, includePrivate: Bool = false, includePages: Bool = false, includeScheduled: Bool = false) {
            self.dryRun = dryRun
            self.includePrivate = includePrivate
            self.includePages = includePages
            self.includeScheduled = includeScheduled
        }
    }

    /// Imports a WordPress export (the WXR file WordPress writes) and answers the server's report.
    ///
    /// The export goes as it is (`application/xml`); the server reads it in one transaction, so a
    /// malformed file imports nothing and fails with `RepositoryError.badRequest` whose problem
    /// detail names the line and column. To watch the upload, bind `UploadProgress.observer`
    /// around the call.
    ///
    /// - Parameters:
    ///   - export: the file's bytes, as WordPress wrote them.
    ///   - options: a dry run, private posts, pages.
    ///   - progressID: an id from ``reserveProgress()``, with which ``progress(of:)`` follows
    ///     this import while this call waits (one id per import).
    /// - Returns: the server's report.
    /// - Throws: `RepositoryError`: `unauthorized` (no session), `forbidden` (not an admin),
    ///   `badRequest` (not an export the server can import), 413 (above the server's
    ///   `IMPORT_MAX_BYTES`).
    public func wordPress(
        export: Data, options: WordPressOptions = WordPressOptions(), progressID: String? = nil
    ) async throws -> ImportReport {
        var query: [URLQueryItem] = []
        if options.dryRun { query.append(URLQueryItem(name: "dryRun", value: "true")) }
        if options.includePrivate { query.append(URLQueryItem(name: "includePrivate", value: "true")) }
        if options.includePages { query.append(URLQueryItem(name: "includePages", value: "true")) }
        if options.includeScheduled { query.append(URLQueryItem(name: "includeScheduled", value: "true")) }
        var headers = HTTPFields()
        headers[.contentType] = "application/xml"
        // The report is JSON whatever the client's wire format.
        headers[.accept] = "application/json"
        if let progressID, let name = HTTPField.Name(HeaderName.importProgressID) {
            headers[name] = progressID
        }
        let request = RESTRequest(.post, path: "/imports/wordpress", query: query, headerFields: headers, body: export)
        let response = try await client.send(request)
        return try response.decode(ImportReport.self, using: Self.json)
    }

    /// Reserves a progress id for the next import (admins only): pass it to
    /// ``wordPress(export:options:progressID:)`` and ask ``progress(of:)`` while that call waits.
    ///
    /// - Returns: the id (32 hexadecimal digits).
    /// - Throws: `RepositoryError`: `unauthorized`, `forbidden` (not an admin).
    public func reserveProgress() async throws -> String {
        var headers = HTTPFields()
        headers[.accept] = "application/json"
        let response = try await client.send(RESTRequest(.post, path: "/imports/progress", headerFields: headers))
        let status = try response.decode(ImportStatus.self, using: Self.json)
        guard let id = status.id else {
            throw RepositoryError.undecodable(response.details, DecodingFailure(index: nil, codingPath: "id", reason: "missing"))
        }
        return id
    }

    /// How far the import with this progress id is (see ``reserveProgress()``). Needs no
    /// session: the id is the key, and the server answers even while the import keeps its
    /// database busy.
    ///
    /// - Parameter id: the id from ``reserveProgress()``.
    /// - Returns: where the import is, and how far.
    /// - Throws: `RepositoryError.notFound` for an id the server does not know (unused for ten
    ///   minutes, or its import ended more than a minute ago).
    public func progress(of id: String) async throws -> ImportStatus {
        var headers = HTTPFields()
        headers[.accept] = "application/json"
        let segment = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
        let response = try await client.send(RESTRequest(.get, path: "/imports/progress/\(segment)", headerFields: headers))
        return try response.decode(ImportStatus.self, using: Self.json)
    }

    /// Import answers are JSON whatever the client's wire format.
    private static let json = JSONBodyCoder(makeEncoder: { IntranetJSON.encoder() }, makeDecoder: { IntranetJSON.decoder() })
}
