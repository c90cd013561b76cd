import Foundation
import HTTPTypes

/// Something that carries one HTTP exchange to a server and brings back the answer.
///
/// A transport is the only place a repository touches the network, so swapping it swaps the
/// backend: ``URLSessionTransport`` in apps, a mock in unit tests, middleware around either.
///
/// A transport answers every HTTP status, 4xx and 5xx included, as a normal return; it throws
/// only when no answer came back (no connection, time-out, cancellation).
public protocol Transport: Sendable {
    /// Sends one request and returns the server's response with its body.
    ///
    /// - Parameters:
    ///   - request: the request; its `path` holds the path and the encoded query, relative to
    ///     the transport's base URL.
    ///   - body: the request body, or `nil` for none.
    /// - Returns: the response head and its body (empty when the server sent none).
    /// - Throws: when the exchange failed before a response arrived, or the calling task was
    ///   cancelled.
    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data)
}
