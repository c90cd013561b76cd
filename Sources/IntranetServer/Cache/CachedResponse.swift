import HTTPTypes
import NIOCore

/// A fully encoded `200` answer: its body, its `ETag` and the headers that go with it.
struct CachedResponse: Sendable {
    var body: ByteBuffer
    var etag: String
    var headers: HTTPFields
}
