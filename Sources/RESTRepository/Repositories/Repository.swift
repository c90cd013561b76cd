import Foundation

/// A repository: a typed view of one REST resource, reached through a ``RESTClient``.
///
/// A repository adopts only the verbs it serves (``Creatable``, ``Readable``, ``Updatable``,
/// ``Patchable``, ``Deletable`` for collections; ``SingleReadable``, ``SingleUpdatable``,
/// ``SingleDeletable`` for singletons such as `/users/me`) and gets each verb's methods from
/// protocol extensions.
public protocol Repository: Sendable {
    /// The client that sends this repository's requests.
    var client: RESTClient { get }
    /// The resource's path relative to the base URL, e.g. `/announcements` or `/users/me`.
    var path: String { get }
}

/// A repository of a collection whose members have ids, e.g. `/announcements/{id}`.
public protocol CollectionRepository: Repository {
    /// The type of a member's id, as it appears in the member's path.
    associatedtype ID: LosslessStringConvertible & Sendable

    /// The error a 412 answer to a conditional write of member `id` becomes.
    ///
    /// The default is ``RepositoryError/preconditionFailed(_:)``; a ``Readable`` repository
    /// reads the member again and gives a typed ``VersionConflict`` with it. Which one a type
    /// gets is fixed where it declares its conformances: declare `Readable` with the write
    /// protocols (as `AnnouncementsRepository` does), not in a conditional or later extension,
    /// or implement this method yourself.
    ///
    /// - Parameters:
    ///   - response: the 412 response.
    ///   - id: the member written.
    func conflict(_ response: ResponseDetails, id: ID) async -> any Error
}

extension CollectionRepository {
    /// The path of one member: the collection path, a slash and the percent-encoded id.
    ///
    /// - Parameter id: the member's id.
    public func path(for id: ID) -> String {
        let text = String(describing: id)
        let encoded = text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed
            .subtracting(CharacterSet(charactersIn: "/"))) ?? text
        return path + "/" + encoded
    }

    /// The untyped 412: a repository that cannot read cannot say what the server holds.
    public func conflict(_ response: ResponseDetails, id: ID) async -> any Error {
        RepositoryError.preconditionFailed(response)
    }

    /// Runs a conditional write and, when it fails with 412, throws ``conflict(_:id:)``
    /// instead.
    ///
    /// - Parameters:
    ///   - id: the member written.
    ///   - write: the write.
    /// - Throws: the write's ``RepositoryError``, or the conflict for 412.
    public func reportingConflict<Result>(
        id: ID, _ write: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await write()
        } catch RepositoryError.preconditionFailed(let response) {
            throw await conflict(response, id: id)
        }
    }

    /// The request's `If-Match`, or ``RepositoryError/missingETag`` when a conditional write
    /// was asked for without an entity tag.
    func requiredETag<Value>(of current: Versioned<Value>) throws -> String {
        guard let etag = current.etag else { throw RepositoryError.missingETag }
        return etag
    }
}
