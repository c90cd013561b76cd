import FluentKit
import SQLKit

/// The search in memory (``PeopleSearchIndex``): order and count from the snapshot, the page's
/// people read by id from the database as they are now.
struct InMemoryPeopleSearch: PeopleSearchStrategy {
    let index: PeopleSearchIndex
    let database: any Database

    func search(_ text: String, _ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int)? {
        guard let snapshot = index.current() else { return nil }
        return try await page(of: snapshot, text, request)
    }

    /// A page of a search found in memory, its people then read by id; `nil` when the directory
    /// changed in the meantime (someone on the page is gone or no longer matches), and the
    /// database should be searched instead.
    private func page(
        of snapshot: PeopleSearchSnapshot, _ text: String, _ request: PersonListRequest
    ) async throws -> (items: [StoredPerson], total: Int)? {
        let (ids, total) = snapshot.search(text, request)
        var people: [StoredPerson] = []
        if !ids.isEmpty {
            var byID: [Int: StoredPerson] = [:]
            for row in try await FluentPersonRepository.rows(where: "id", in: ids, on: database) {
                guard PeopleSearchSnapshot.contains(try row.decode(column: "search_key", as: String.self), text) else { return nil }
                let person = try StoredPerson(row: row)
                byID[person.id] = person
            }
            people = ids.compactMap { byID[$0] }
            guard people.count == ids.count else { return nil }
        }
        guard index.confirm(snapshot) else { return nil }
        return (people, total)
    }
}
