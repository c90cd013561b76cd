import FluentKit

/// Adds each person's phone number to the folded text the directory's searches look in
/// (``PersonModel/searchKey(of:)``), so that `GET /search` and `GET /people?q=` find people by
/// their number too. The search indexes follow `search_key` by themselves.
struct AddPhoneToPeopleSearch: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.transaction { database in
            for model in try await PersonModel.query(on: database).all() {
                let key = PersonModel.searchKey(of: try StoredPerson(model).content)
                guard key != model.searchKey else { continue }
                model.searchKey = key
                try await model.update(on: database)
            }
        }
    }

    func revert(on database: any Database) async throws {}
}
