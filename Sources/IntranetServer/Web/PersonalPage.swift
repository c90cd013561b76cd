import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import IntranetHTML
import NIOCore

/// A signed-in page as every user of one view and role sees it, with the few places that are
/// each person's own — their name in the header, the CSRF token of their forms — left open and
/// filled in per request (``response(name:csrf:for:)``).
///
/// The open places are found by rendering the layout with markers in their stead: random per
/// process, so no announcement, name or query can contain one. The page is kept split at them.
struct PersonalPage: Sendable {
    /// What goes in an open place.
    enum Slot: Sendable, CaseIterable {
        case name, csrf

        /// What the layout is rendered with in this place's stead.
        var marker: String { Self.markers[self == .name ? 0 : 1] }

        private static let markers: [String] = {
            let nonce = WebCookies.randomToken()
            return ["slot-name-\(nonce)", "slot-csrf-\(nonce)"]
        }()
    }

    /// The page's bytes between the open places: one more than ``slots``.
    let segments: [ByteBuffer]
    let slots: [Slot]
    /// The shared page's tag, from which each person's is derived.
    let sharedTag: String
    let contentType: String

    /// Splits a page rendered with the ``Slot`` markers at them.
    init(rendered: String, contentType: String = "text/html; charset=utf-8") {
        var segments: [ByteBuffer] = []
        var slots: [Slot] = []
        var rest = rendered[...]
        while let (slot, range) = Slot.allCases.compactMap({ slot in rest.range(of: slot.marker).map { (slot, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound })
        {
            segments.append(ByteBuffer(string: String(rest[..<range.lowerBound])))
            slots.append(slot)
            rest = rest[range.upperBound...]
        }
        segments.append(ByteBuffer(string: String(rest)))
        self.segments = segments
        self.slots = slots
        self.sharedTag = EntityTag.forContent(Array(rendered.utf8), suffix: "html")
        self.contentType = contentType
    }

    /// The bytes it holds, counted against the cache's budget.
    var size: Int { segments.reduce(0) { $0 + $1.readableBytes } }

    /// The page for one person (`name` escaped here), `private`, revalidated with a tag of
    /// their own: `304` when the request's `If-None-Match` holds it.
    func response(name: String, csrf: String, for request: Request) -> Response {
        let tag = tag(name: name, csrf: csrf)
        let cached = CachedResponse(
            body: ByteBuffer(), etag: tag, headers: [.contentType: contentType, .eTag: tag, .cacheControl: "private, no-cache"])
        if EntityTag.noneMatchHits(request.headers[.ifNoneMatch], etag: tag) {
            return cached.response(for: request)
        }
        var page = cached
        page.body = body(name: name, csrf: csrf)
        return page.response(status: .ok)
    }

    /// One person's entity tag, derived from the shared page's and what is filled in.
    func tag(name: String, csrf: String) -> String {
        var digest = SHA256()
        digest.update(data: Array("\(sharedTag)|\(name)|\(csrf)".utf8))
        return "\"l" + digest.finalize().prefix(12).hexString + "html\""
    }

    /// One person's page: the shared bytes with their name and CSRF token, escaped, in their
    /// places.
    func body(name: String, csrf: String) -> ByteBuffer {
        let values: [Slot: String] = [.name: HTMLSanitizer.escape(name), .csrf: HTMLSanitizer.escape(csrf)]
        var body = ByteBuffer()
        body.reserveCapacity(size + 256)
        for (index, segment) in segments.enumerated() {
            body.writeImmutableBuffer(segment)
            if index < slots.count { body.writeString(values[slots[index]]!) }
        }
        return body
    }
}
