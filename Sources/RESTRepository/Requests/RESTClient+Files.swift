import Foundation
import HTTPTypes

extension RESTClient {
    /// Sends a request whose body is the content of a file, read from disk as it is sent.
    ///
    /// The file is mapped into memory rather than read, so middleware see (and a signature
    /// hashes) the body's bytes without holding them; ``URLSessionTransport`` then sends the
    /// file itself, a piece at a time, and other transports get the mapped bytes. The file must
    /// not shrink while it is sent. Bind ``UploadProgress/observer`` around the call to watch
    /// the bytes leave.
    ///
    /// - Parameters:
    ///   - request: the request; its body becomes the file's content, and it keeps its
    ///     `Content-Type` (`application/octet-stream` when it has none).
    ///   - fileURL: the local file to send.
    /// - Returns: the server's 2xx response.
    /// - Throws: ``RepositoryError/localStore(_:)`` when the file cannot be read (nothing is
    ///   sent), otherwise the ``RepositoryError`` of the exchange.
    public func upload(_ request: RESTRequest, fromFile fileURL: URL) async throws -> RESTResponse {
        var request = request
        do {
            request.body = try Data(contentsOf: fileURL, options: .alwaysMapped)
        } catch {
            throw RepositoryError.localStore(error)
        }
        if request.headerFields[.contentType] == nil {
            request.headerFields[.contentType] = "application/octet-stream"
        }
        return try await FileTransfer.$requestBody.withValue(fileURL) {
            try await send(request)
        }
    }

    /// Sends a `GET` and writes the body of its successful answer to a file as it arrives.
    ///
    /// ``URLSessionTransport`` downloads into a temporary file beside `destination`, which
    /// replaces `destination` only once the whole body is there; other transports answer in
    /// memory, and the body is written from there. The answer goes around the response store
    /// (``caching``), which keeps bodies in memory and in its file; under
    /// ``StorePolicy/storeOnly`` nothing is sent. A failed exchange leaves `destination` as it
    /// was.
    ///
    /// - Parameters:
    ///   - request: the request, a `GET`; give it `If-None-Match` to be answered `304`
    ///     (``RepositoryError/unexpectedStatus(_:)``, `destination` untouched) when the file
    ///     is unchanged.
    ///   - destination: the file to write; replaced when it exists.
    /// - Returns: the server's 2xx response, with an empty body: the body is in `destination`.
    /// - Throws: the ``RepositoryError`` of the exchange, ``RepositoryError/localStore(_:)``
    ///   when the body arrived but could not be written, or ``RepositoryError/notStored(path:)``
    ///   under ``StorePolicy/storeOnly``.
    public func download(_ request: RESTRequest, to destination: URL) async throws -> RESTResponse {
        if let caching, (StorePolicy.current ?? caching.policy) == .storeOnly {
            throw RepositoryError.notStored(path: request.pathWithQuery)
        }
        var direct = self
        direct.caching = nil
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        let target = DownloadTarget(url: partial)
        defer { try? FileManager.default.removeItem(at: partial) }
        let response = try await FileTransfer.$responseBody.withValue(target) {
            try await direct.send(request)
        }
        do {
            switch target.outcome {
            case .written:
                try Self.replace(destination, with: partial)
            case .notWritten:
                try response.body.write(to: destination, options: .atomic)
            case .failed(let error):
                throw error
            }
        } catch {
            throw RepositoryError.localStore(error)
        }
        return RESTResponse(head: response.head, body: Data(), origin: response.origin)
    }

    /// Renames `replacement` to `destination` in one step, replacing any file there.
    private static func replace(_ destination: URL, with replacement: URL) throws {
        guard rename(replacement.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: destination.path,
                NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
            ])
        }
    }
}
