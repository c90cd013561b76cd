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

    /// The server's current version of a member, used to enrich a 412 answer.
    ///
    /// The default is `nil`; a ``Readable`` repository fetches the member.
    func currentVersion(id: ID) async -> ServerVersion?
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

    /// Fetches nothing: a repository that cannot read cannot say what the server holds.
    public func currentVersion(id: ID) async -> ServerVersion? {
        nil
    }

    /// Runs a conditional write and, when it fails with 412, attaches the member's current
    /// version to the error.
    ///
    /// - Parameters:
    ///   - id: the member written.
    ///   - write: the write.
    /// - Throws: the write's ``RepositoryError``, enriched for 412.
    public func attachingCurrentVersion<Result>(
        id: ID, _ write: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await write()
        } catch RepositoryError.preconditionFailed(let details, current: nil) {
            let current = await currentVersion(id: id)
            throw RepositoryError.preconditionFailed(details, current: current)
        }
    }
}
