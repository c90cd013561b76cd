import Foundation
import HTTPTypes

/// How a ``RESTClient`` uses a ``ResponseStore``: the store, the default ``StorePolicy``, the
/// scope every key carries, and whose answers are being read.
///
/// ```swift
/// let store = ResponseStore(fileURL: cachesDirectory.appending(path: "responses.sqlite"))
/// var client = RESTClient(transport: transport)
/// client.caching = ResponseCaching(store: store, scope: "https://intranet.example.com") {
///     await account.userID ?? "anonymous"
/// }
/// ```
///
/// `GET` answers (200, without `Cache-Control: no-store`) are stored; a 404 forgets the stored
/// answer; a write (`POST`, `PUT`, `PATCH`, `DELETE`) that the server answered 2xx, 404 or 412
/// forgets what it may have changed: the resource, what lies under it and the collections above
/// it, for every user.
public struct ResponseCaching: Sendable {
    /// The store.
    public var store: ResponseStore
    /// The policy of `GET` requests, unless ``StorePolicy/current`` overrides it.
    public var policy: StorePolicy
    /// The server, telling its answers from another server's in a shared store; a write
    /// forgets what it changed within its scope.
    public var scope: String
    /// What this client selects for every request beyond its header fields, e.g. the API
    /// version a middleware asks for: answers for another selection are never served.
    public var selection: String
    /// Returns whose answers are being read now: the signed-in user's id, or `anonymous`.
    public var partition: @Sendable () async -> String

    /// Creates the caching settings.
    ///
    /// - Parameters:
    ///   - store: the store.
    ///   - policy: the default policy (``StorePolicy/networkFirst``).
    ///   - scope: the server.
    ///   - selection: what the client selects beyond header fields (empty by default).
    ///   - partition: returns the current user's partition, e.g. `user:42` or `anonymous`.
    public init(
        store: ResponseStore, policy: StorePolicy = .networkFirst, scope: String, selection: String = "",
        partition: @escaping @Sendable () async -> String
    ) {
        self.store = store
        self.policy = policy
        self.scope = scope
        self.selection = selection
        self.partition = partition
    }
}

extension RESTClient {
    /// A `GET` through the store, by the policy in force.
    func sendThroughStore(_ request: RESTRequest, caching: ResponseCaching) async throws -> RESTResponse {
        let key = StoreKey(request, scope: caching.scope, partition: await caching.partition(), selection: caching.selection)
        let store = caching.store
        switch StorePolicy.current ?? caching.policy {
        case .networkOnly:
            return try await fetch(request, key: key, stored: nil, store: store)
        case .storeOnly:
            guard let stored = store.response(for: key) else { throw RepositoryError.notStored(path: request.path) }
            return stored.response(origin: ResponseOrigin(source: .store, confirmedAt: stored.confirmedAt))
        case .storeFirst:
            if let stored = store.response(for: key) {
                store.revalidate {
                    _ = try? await self.fetch(request, key: key, stored: stored, store: store)
                }
                return stored.response(origin: ResponseOrigin(source: .store, confirmedAt: stored.confirmedAt))
            }
            return try await fetch(request, key: key, stored: nil, store: store)
        case .networkFirst:
            // Marked as used by the 304 or the new answer; or below, when shown offline.
            let stored = store.response(for: key, markingUsed: false)
            do {
                return try await fetch(request, key: key, stored: stored, store: store)
            } catch let error as RepositoryError where error.isUnreachable {
                guard let stored else { throw error }
                _ = store.response(for: key)
                return stored.response(origin: ResponseOrigin(
                    source: .storeWhileUnreachable, confirmedAt: stored.confirmedAt, failure: error.userMessage))
            }
        }
    }

    /// Asks the server, conditionally when an answer with an `ETag` is stored, and keeps the
    /// store in step with the answer.
    private func fetch(_ request: RESTRequest, key: StoreKey, stored: StoredResponse?, store: ResponseStore) async throws -> RESTResponse {
        var request = request
        let conditional = stored?.etag != nil
        if let etag = stored?.etag {
            request.headerFields[.ifNoneMatch] = etag
        }
        let (head, body) = try await transmit(request)
        if head.status == .notModified, conditional, let stored {
            store.confirm(key)
            return stored.response(origin: ResponseOrigin(source: .revalidated, confirmedAt: Date()))
        }
        if let error = RepositoryError(response: head, body: body) {
            if case .notFound = error { store.remove(key) }
            throw error
        }
        let noStore = head.headerFields[values: .cacheControl]
            .flatMap { $0.split(separator: ",") }
            .contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-store" }
        if head.status == .ok, !noStore {
            store.save(
                StoredResponse(status: 200, headerFields: head.headerFields, body: body, etag: head.headerFields[.eTag], confirmedAt: Date()),
                for: key)
        }
        return RESTResponse(head: head, body: body)
    }
}

extension RepositoryError {
    /// Whether no answer came from the application: the request never got one, or a gateway
    /// said the server behind it is unreachable (502, 503, 504). ``StorePolicy/networkFirst``
    /// answers from the store in these cases.
    public var isUnreachable: Bool {
        switch self {
        case .transport: true
        case .server(let details): [502, 503, 504].contains(details.status.code)
        default: false
        }
    }
}
