import HTTPTypes
import NIOCore

/// A fully encoded `200` answer: its body, its `ETag` and the headers that go with it.
struct CachedResponse: Sendable {
    var body: ByteBuffer
    var etag: String
    var headers: HTTPFields
    /// Whether it is an announcement's 3.0 detail that asks readers for an acknowledgement: a
    /// signed-in reader then gets their own answer (with when they acknowledged) instead.
    var asksAcknowledgement = false
    /// For an attached file too large to keep in memory: which stored file the body streams
    /// from (`body` is then empty).
    var file: StoredFileReference?
}

/// A stored file a response streams: its content hash and size.
struct StoredFileReference: Sendable, Equatable {
    var hash: String
    var size: Int64
}

/// The part of a web page that depends only on what its reader may see: its title and its main
/// content, already escaped; the layout around it (who is signed in, the CSRF token) is added
/// per request.
struct PageFragment: Sendable {
    var title: String
    var main: String
    /// What the announcement of an announcement's page asks of its readers, when it asks them
    /// to acknowledge it: each reader's page then shows their own section.
    var acknowledgement: AcknowledgementRule?

    /// The bytes it holds, counted against the cache's budget.
    var size: Int { title.utf8.count + main.utf8.count }
}
