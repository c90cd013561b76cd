import Foundation
import HTTPTypes
import IntranetAPI
import RESTRepository

extension AttachmentsRepository {
    /// What ``download(_:variant:to:ifNoneMatch:)`` did.
    public enum DownloadOutcome: Sendable, Equatable {
        /// The file was written.
        case downloaded(DownloadedFile)
        /// The server said the file still has the entity tag given as `ifNoneMatch` (`304`):
        /// nothing was written.
        case notModified
    }

    /// A file written by a download.
    public struct DownloadedFile: Sendable, Equatable {
        /// Where it was written.
        public var url: URL
        /// Its size in bytes.
        public var size: Int64
        /// The media type the server gave, e.g. `image/png`.
        public var mediaType: String?
        /// Its strong entity tag: pass it as `ifNoneMatch` to download it again only if it
        /// changed.
        public var etag: String?

        /// Creates a description of a downloaded file.
        public init(url: URL, size: Int64, mediaType: String?, etag: String?) {
            self.url = url
            self.size = size
            self.mediaType = mediaType
            self.etag = etag
        }
    }

    /// Downloads an attachment's file, or one of an image's smaller variants, to `destination`.
    ///
    /// - Parameters:
    ///   - attachment: the attachment, as described by the server.
    ///   - variant: one of the image's `variants`; `nil` for the file.
    ///   - destination: the file to write (replaced when it exists, and only once the whole
    ///     file has arrived).
    ///   - ifNoneMatch: the ``DownloadedFile/etag`` of a copy already downloaded: when the
    ///     file still has it, nothing is downloaded.
    /// - Returns: the file written, or ``DownloadOutcome/notModified``.
    /// - Throws: a `RepositoryError`: `notFound` when the attachment is gone or the user may
    ///   not read its announcement; `localStore` when `destination` cannot be written.
    @discardableResult
    public func download(
        _ attachment: AttachmentDescription, variant: ImageVariant? = nil, to destination: URL, ifNoneMatch: String? = nil
    ) async throws -> DownloadOutcome {
        try await download(from: variant?.url ?? attachment.url, to: destination, ifNoneMatch: ifNoneMatch)
    }

    /// Downloads the file at a server path (an attachment's or an image variant's `url`) to
    /// `destination`.
    ///
    /// - Parameters:
    ///   - url: the path the server gave, e.g. `/announcements/7/attachments/12/file`.
    ///   - destination: the file to write (replaced when it exists, and only once the whole
    ///     file has arrived).
    ///   - ifNoneMatch: the entity tag of a copy already downloaded, to skip an unchanged file.
    /// - Returns: the file written, or ``DownloadOutcome/notModified``.
    /// - Throws: a `RepositoryError`, as ``download(_:variant:to:ifNoneMatch:)``.
    @discardableResult
    public func download(from url: String, to destination: URL, ifNoneMatch: String? = nil) async throws -> DownloadOutcome {
        let components = URLComponents(string: url)
        let path = components?.percentEncodedPath ?? url
        let request = RESTRequest(.get, path: path.isEmpty ? "/" : path, query: components?.queryItems ?? [])
            .setting(.accept, to: "*/*")
            .setting(.ifNoneMatch, to: ifNoneMatch)
        let response: RESTResponse
        do {
            response = try await client.download(request, to: destination)
        } catch RepositoryError.unexpectedStatus(let details) where details.status == .notModified {
            return .notModified
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value ?? 0
        return .downloaded(DownloadedFile(url: destination, size: size, mediaType: response.headerFields[.contentType], etag: response.etag))
    }
}
