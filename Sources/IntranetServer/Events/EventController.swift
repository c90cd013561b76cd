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
struct EventController: Sendable {
    static let path = "/events"

    let hub: EventHub

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, Self.path, stream)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard Self.acceptsEventStream(request.headers) else {
            throw APIError(status: .notAcceptable, detail: "This resource is a stream of events: send Accept: text/event-stream.")
        }
        // A HEAD answers the head alone: no stream is opened for a body never written.
        if request.method == .head { return Response(status: .ok, headers: Self.headers) }
        let viewer = EventHub.Viewer(user: context.user, token: context.bearerToken)
        let lastEventID = request.headers[.lastEventID]
        guard lastEventID.map({ $0.utf8.count <= 64 }) ?? true else {
            throw APIError.validation([.init(field: "Last-Event-ID", message: "is longer than 64 bytes")])
        }
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
        return Response(status: .ok, headers: Self.headers, body: body)
    }

    /// The head of every stream.
    static let headers: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8",
        .cacheControl: "no-store",
        .xAccelBuffering: "no",
        .xContentTypeOptions: "nosniff",
    ]

    /// Whether `Accept` names `text/event-stream` itself: a stream never ends, so a client that
    /// did not ask for one by name (`*/*`, or no `Accept`: a crawler, a contract fuzzer, a
    /// script expecting a document) gets a 406 that says how to ask, instead of an answer that
    /// never completes. `EventSource` always sends it.
    static func acceptsEventStream(_ headers: HTTPFields) -> Bool {
        let accept = headers[values: .accept].joined(separator: ",")
        return MediaRange.parseList(accept).contains { $0.quality > 0 && $0.type == "text" && $0.subtype == "event-stream" }
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`: where a reconnecting stream resumes.
    static var lastEventID: Self { Self("Last-Event-ID")! }
    /// `X-Accel-Buffering: no` asks proxies (nginx) not to buffer a stream.
    static var xAccelBuffering: Self { Self("X-Accel-Buffering")! }
}
