import Foundation
import HTTPTypes
import RESTRepository

/// A ``Transport`` for tests: it records every request and answers from a script of
/// responses, in order, or from a closure.
///
/// ```swift
/// let transport = MockTransport(script: [.json([["id": 1]]), .status(.noContent)])
/// // … exercise a repository …
/// let sent = try #require(await transport.requests.first)
/// #expect(sent.path == "/announcements")
/// ```
public actor MockTransport: Transport {
    /// Answers one request.
    public typealias Responder = @Sendable (RecordedRequest) async throws -> MockResponse

    private let responder: Responder?
    private var script: [MockResponse]
    /// Every request sent so far, in order.
    public private(set) var requests: [RecordedRequest] = []

    /// Creates a transport answering from a script; once it runs out, requests fail with
    /// ``MockTransportError/scriptExhausted(_:)``.
    ///
    /// - Parameter script: the responses, in the order requests will get them.
    public init(script: [MockResponse]) {
        self.script = script
        self.responder = nil
    }

    /// Creates a transport answering every request with a closure.
    ///
    /// - Parameter responder: turns each recorded request into a response or throws.
    public init(responder: @escaping Responder) {
        self.script = []
        self.responder = responder
    }

    /// Records the request and answers it.
    ///
    /// - Throws: the scripted failure, ``MockTransportError/scriptExhausted(_:)``, or what the
    ///   responder throws.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let recorded = RecordedRequest(request: request, body: body)
        requests.append(recorded)
        let answer: MockResponse
        if let responder {
            answer = try await responder(recorded)
        } else {
            guard !script.isEmpty else { throw MockTransportError.scriptExhausted(recorded) }
            answer = script.removeFirst()
        }
        return try answer.result()
    }

    /// The most recent request, or `nil` when none was sent.
    public var lastRequest: RecordedRequest? { requests.last }

    /// How many scripted responses are still unused.
    public var remainingResponses: Int { script.count }
}

/// Failures of ``MockTransport`` itself.
public enum MockTransportError: Error, Sendable {
    /// A request arrived after the script's last response was used.
    case scriptExhausted(RecordedRequest)
}
