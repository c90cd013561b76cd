import Foundation

/// Where an import reads a site's media from: a copy of its uploads directory
/// (``MediaDirectory``) or the site itself (``SiteMediaFetcher``).
protocol MediaSource: Sendable {
    /// Reads the file `reference` names into a temporary file of its own (the caller discards
    /// it).
    ///
    /// - Throws: ``MediaReadError``; `CancellationError` when the import is cancelled.
    func read(_ reference: UploadReference) async throws -> ReceivedFile
}

/// Why one file could not be read; the import goes on without it and its report says why.
enum MediaReadError: Error, Equatable {
    /// No such file (in the directory, or on the site: HTTP 404 or 410).
    case notFound
    /// Its path leads outside the media directory (through a symbolic link).
    case outsideDirectory
    /// It has more bytes than an attachment may have.
    case tooLarge(limit: Int64)
    /// It took longer than the time allowed for one file.
    case timedOut(Duration)
    /// The site answered with another status than 200.
    case status(Int)
    /// The site redirected to a host the export does not name.
    case redirected(host: String)
    /// As many files as allowed were downloaded already.
    case tooMany(limit: Int)
    /// The file could not be read, or the connection failed.
    case unreadable(String)

    /// What the report says.
    var reason: String {
        switch self {
        case .notFound: "not found"
        case .outsideDirectory: "its path leads outside the media directory"
        case .tooLarge(let limit): "larger than \(limit) bytes (ATTACHMENT_MAX_BYTES)"
        case .timedOut(let duration): "not received within \(Self.seconds(duration))"
        case .status(let code): "the site answered HTTP \(code)"
        case .redirected(let host): "redirected to \(host), a host the export does not name"
        case .tooMany(let limit): "not downloaded: the import's limit of \(limit) downloads was reached (--max-media-files)"
        case .unreadable(let reason): reason
        }
    }

    /// `30 s`, `0.5 s`.
    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }
}
