import Foundation

/// The people of the directory, in one database.
protocol PersonRepository: Sendable {
    /// A page of people and how many match in all.
    func list(_ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int)
    /// The person with this id, if any.
    func find(id: Int) async throws -> StoredPerson?
    /// The people with these ids that exist, in no particular order.
    func people(ids: [Int]) async throws -> [StoredPerson]
    /// The reports of each of these people, in name order (people without reports are absent).
    func reports(of ids: [Int]) async throws -> [Int: [StoredPerson]]
    /// The person and their managers up to the top, in that order; `nil` when there is no
    /// such person.
    func chain(of id: Int) async throws -> [StoredPerson]?
    /// The person whose account is `userID`, if any.
    func person(ofUser userID: Int) async throws -> StoredPerson?
    /// Everyone, in name order (for the org chart).
    func everyone() async throws -> [StoredPerson]
    /// Adds a person.
    ///
    /// - Throws: ``APIError`` 422 for a manager or account that does not exist, an address or
    ///   account another person has.
    func create(_ content: PersonContent) async throws -> StoredPerson
    /// Changes a person in one transaction, after checking `precondition` against the stored
    /// revision; `change` maps the current person to the new content.
    ///
    /// - Throws: ``APIError`` 404, 412, or 422 as for ``create(_:)`` and for a manager chain
    ///   that would loop back to the person (the message names the loop).
    func update(id: Int, precondition: WritePrecondition, change: @escaping @Sendable (StoredPerson) throws -> PersonContent) async throws
        -> StoredPerson
    /// Removes a person, first moving their reports as `reassignment` says, in one transaction.
    ///
    /// - Throws: ``APIError`` 404, 412, 409 when the person has reports and `reassignment` is
    ///   `nil`, 422 when the reports cannot go where it says.
    func delete(id: Int, precondition: WritePrecondition, reassignment: Reassignment?) async throws
}
