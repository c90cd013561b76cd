import FluentKit

/// The directory's plain list, and a search by `LIKE` on the search text: for texts too short
/// for a trigram index, and wherever no faster strategy can answer. Always answers.
struct PlainPeopleSearch: PeopleSearchStrategy {
    let database: any Database

    func search(_ text: String, _ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int)? {
        try await page(matching: text, request)
    }

    /// A page of everyone (`search` `nil`) or of the people whose search text contains `search`.
    func page(matching search: String?, _ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int) {
        let database = self.database
        let matching: @Sendable () -> QueryBuilder<PersonModel> = {
            let query = PersonModel.query(on: database)
            guard let search else { return query }
            return query.filter(.sql(SearchPattern.like("search_key", containing: search)))
        }
        let total = try await matching().count()
        let direction: DatabaseQuery.Sort.Direction = request.isDescending ? .descending : .ascending
        var query = matching()
        switch request.sort {
        case .id: query = query.sort(\.$id, direction)
        case .name: query = query.sort(\.$name, direction).sort(\.$id, direction)
        case .email: query = query.sort(\.$emailKey, direction).sort(\.$id, direction)
        case .jobTitle: query = query.sort(\.$jobTitle, direction).sort(\.$id, direction)
        case .department: query = query.sort(\.$department, direction).sort(\.$id, direction)
        }
        let models = try await query.range(request.offset..<(request.offset + request.limit)).all()
        return (try models.map(StoredPerson.init), total)
    }
}
