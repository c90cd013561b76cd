import Foundation
import HTTPTypes
import RESTRepository
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Makes the live stream's request the way every other request of the client is made: its
/// middleware adds the version, the session's token and the signature; the stream then goes
/// straight to `URLSession` (a transport answers whole bodies only).
struct LiveStreamRequests: Sendable {
    /// The client's transport, when it is one that can reach the server's URL.
    let transport: URLSessionTransport?
    /// The client's middleware, but logging (a stream is no exchange to log).
    let middleware: [any TransportMiddleware]

    /// The request of a connection resuming after `lastEventID`.
    @Sendable func prepare(_ lastEventID: String?) async throws -> URLRequest {
        guard let transport else {
            throw RepositoryError.transport(URLError(.unsupportedURL, userInfo: [
                NSLocalizedDescriptionKey: "The live stream needs a client made with a base URL.",
            ]))
        }
        var fields: HTTPFields = [.accept: "text/event-stream"]
        if let lastEventID { fields[Self.lastEventID] = lastEventID }
        let capture = Capture()
        _ = try await MiddlewareTransport(capture, middleware: middleware)
            .send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/events", headerFields: fields), body: nil)
        guard let request = capture.request else { throw RepositoryError.cancelled }
        return try transport.makeURLRequest(request, body: nil)
    }

    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// The end of the chain: keeps the request as the middleware made it.
    private final class Capture: Transport {
        private let kept = Mutex<HTTPRequest?>(nil)

        var request: HTTPRequest? { kept.withLock { $0 } }

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            kept.withLock { $0 = request }
            return (HTTPResponse(status: .ok), Data())
        }
    }
}
