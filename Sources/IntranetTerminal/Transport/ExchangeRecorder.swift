import Foundation

/// Remembers the response bodies a command received, byte for byte, so `--output json` can
/// print the server's data unchanged (the SDK hands back decoded values only).
public actor ExchangeRecorder {
    /// One answered request.
    public struct Exchange: Sendable, Equatable {
        /// The method, e.g. `GET`.
        public var method: String
        /// The path and query, e.g. `/announcements?page=1&per_page=10`.
        public var path: String
        /// The response status code.
        public var status: Int
        /// The response body as received.
        public var body: Data
    }

    /// Every answered request, oldest first.
    public private(set) var exchanges: [Exchange] = []

    /// Creates an empty recorder.
    public init() {}

    /// Records one answered request.
    public func record(_ exchange: Exchange) {
        exchanges.append(exchange)
    }

    /// The body of the most recent response, or empty when none arrived.
    public var lastBody: Data {
        exchanges.last?.body ?? Data()
    }
}
