import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import ServiceLifecycle

/// Serves `GET /events`: a live stream (Server-Sent Events) of what changed among the
/// announcements and people the caller may read, resumable with `Last-Event-ID`
/// (``EventHub`` explains what is sent to whom).
///
/// Signed in with a bearer token, or with the web session's cookie alone (a browser's
/// `EventSource` sends no other header; a stream only reads, and another site cannot read it),
/// or signed out for public announcements. The stream is never compressed or buffered
/// (`X-Accel-Buffering: no`), and ends by itself when the session ends, when the client reads
/// too slowly, and at once when the server shuts down, each time with a last `closing` event.
///
/// Most streams never reach it: ``EventStreamHandler`` serves them on the event loop, the same
/// way, when the caller is signed out or their session is remembered. This answers the rest (a
/// session to look up, a `HEAD`, a refusal, and every stream where requests must be signed).
struct EventController: Sendable {
    static let path = "/events"

    let hub: EventHub

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.path, stream)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let lastEventID = request.headers[.lastEventID]
        guard lastEventID.map({ $0.utf8.count <= 64 }) ?? true else {
            throw APIError.validation([.init(field: "Last-Event-ID", message: "is longer than 64 bytes")])
        }
        switch Self.asks(request.headers) {
        case .refused:
            throw APIError(status: .notAcceptable, detail: "This resource is a stream of events: send Accept: text/event-stream.")
        case .anything:
            // A client that did not ask for a stream by name (a script, a crawler, a contract
            // fuzzer) gets its first message — where the log stands — and an end, never an
            // answer that does not finish.
            var body = ServerSentEvents.opening(retry: Int.random(in: hub.settings.retry), position: try await hub.newestEntry())
            body.writeString(": this was the stream's first message only: send Accept: text/event-stream to stay connected\n\n")
            return Response(status: .ok, headers: Self.headers, body: .init(byteBuffer: request.method == .head ? ByteBuffer() : body))
        case .stream:
            break
        }
        // A HEAD answers the head alone: no stream is opened for a body never written.
        if request.method == .head { return Response(status: .ok, headers: Self.headers) }
        let viewer = EventHub.Viewer(user: context.user, token: context.bearerToken)
        let subscription = try await hub.open(for: viewer, lastEventID: lastEventID)
        let hub = self.hub
        let body = ResponseBody { writer in
            do {
                try await withGracefulShutdownHandler {
                    while let message = await subscription.queue.next() {
                        try await writer.write(message)
                    }
                } onGracefulShutdown: {
                    subscription.queue.close(with: .shutdown)
                }
            } catch {
                hub.close(subscription)
                throw error
            }
            hub.close(subscription)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: Self.streamHeaders(), body: body)
    }

    /// The head of an open stream, in storage of its own with room for the fields added on the
    /// way out (`X-Request-Id` and `Date`, and more when `adding`): a stream keeps its head for
    /// as long as it lasts, and growing the shared one doubled its storage (0.5 KB a stream).
    static func streamHeaders(adding: Int = 2) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count + adding)
        fields.append(contentsOf: headers)
        return fields
    }

    /// The head of every stream.
    static let headers: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8",
        .cacheControl: "no-store",
        .xAccelBuffering: "no",
        .xContentTypeOptions: "nosniff",
    ]

    /// What `Accept` asks of `/events`.
    enum Asked: Equatable {
        /// `text/event-stream` by name (as `EventSource` always sends): the live stream.
        case stream
        /// Nothing, or only wildcards: the stream's first message, then the end.
        case anything
        /// Only other types: 406.
        case refused
    }

    /// What `Accept` asks: a stream never ends, so only a client that names
    /// `text/event-stream` gets one.
    static func asks(_ headers: HTTPFields) -> Asked {
        let accept = headers[values: .accept].joined(separator: ",")
        let ranges = MediaRange.parseList(accept).filter { $0.quality > 0 }
        if ranges.contains(where: { $0.type == "text" && $0.subtype == "event-stream" }) { return .stream }
        if accept.isEmpty || ranges.contains(where: { $0.admits(type: "text", subtype: "event-stream") }) { return .anything }
        return .refused
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`: where a reconnecting stream resumes.
    static var lastEventID: Self { Self("Last-Event-ID")! }
    /// `X-Accel-Buffering: no` asks proxies (nginx) not to buffer a stream.
    static var xAccelBuffering: Self { Self("X-Accel-Buffering")! }
}
