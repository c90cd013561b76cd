import Foundation

/// Where a `GET` is answered from when the client has a ``ResponseStore``.
///
/// Set one per client (``ResponseCaching/policy``) and override it for a call or a group of
/// calls with ``current``:
///
/// ```swift
/// let page = try await StorePolicy.$current.withValue(.storeOnly) {
///     try await client.announcements.read(page: 1, pageSize: 20)
/// }
/// ```
public enum StorePolicy: String, Sendable, CaseIterable {
    /// Ask the server (revalidating a stored answer with `If-None-Match`); when no answer
    /// comes (a transport error, or a 502, 503 or 504 from a gateway), answer from the store,
    /// saying so (``ResponseOrigin/Source/storeWhileUnreachable``). The default.
    case networkFirst
    /// Answer from the store at once when it has the answer, and revalidate it in the
    /// background (``ResponseStore/waitForRevalidations()``); ask the server otherwise.
    case storeFirst
    /// Ask the server only; its answer still refreshes the store.
    case networkOnly
    /// Answer from the store only; ``RepositoryError/notStored(path:)`` when it does not hold
    /// the answer. Nothing is sent.
    case storeOnly

    /// The policy for `GET` requests made in this task, overriding the client's; `nil` (the
    /// default) keeps the client's.
    @TaskLocal public static var current: StorePolicy?
}

/// Where an answer came from, and how old it is.
public struct ResponseOrigin: Sendable, Equatable {
    /// The source of an answer.
    public enum Source: Sendable, Equatable {
        /// A full answer from the server, just now.
        case network
        /// A stored answer the server confirmed just now (304 Not Modified).
        case revalidated
        /// A stored answer, not checked with the server (``StorePolicy/storeFirst`` or
        /// ``StorePolicy/storeOnly``).
        case store
        /// A stored answer shown because the server could not be reached.
        case storeWhileUnreachable
    }

    /// The source.
    public var source: Source
    /// When the server last gave or confirmed the answer; `nil` for an answer just received.
    public var confirmedAt: Date?
    /// Why the server was not used, for ``Source/storeWhileUnreachable``.
    public var failure: String?

    /// Creates an origin.
    ///
    /// - Parameters:
    ///   - source: the source.
    ///   - confirmedAt: when the server last gave or confirmed the answer.
    ///   - failure: why the server was not used.
    public init(source: Source, confirmedAt: Date? = nil, failure: String? = nil) {
        self.source = source
        self.confirmedAt = confirmedAt
        self.failure = failure
    }

    /// A full answer from the server, just now.
    public static let network = ResponseOrigin(source: .network)

    /// Whether the answer came from the store without the server confirming it now.
    public var isFromStore: Bool { source == .store || source == .storeWhileUnreachable }

    /// Seconds since the server last gave or confirmed the answer (0 for a fresh one).
    ///
    /// - Parameter now: the time to measure to.
    public func age(at now: Date = Date()) -> TimeInterval {
        guard isFromStore, let confirmedAt else { return 0 }
        return max(0, now.timeIntervalSince(confirmedAt))
    }
}
