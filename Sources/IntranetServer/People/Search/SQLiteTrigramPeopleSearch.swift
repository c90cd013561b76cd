import SQLKit

/// Searches of three characters or more on SQLite, through the FTS5 trigram table.
struct SQLiteTrigramPeopleSearch: TrigramPeopleSearch {
    let sql: any SQLDatabase

    /// A search of three characters or more on SQLite, through the FTS5 trigram table (see
    /// ``AddPeopleSearchIndex``): the text as a phrase of trigrams, which matches exactly where
    /// it occurs as a substring, answered from the index alone.
    ///
    /// The count comes first; it decides how the page is found. A text many people match is
    /// found soonest by walking the sort's index and stopping at the page; one few people match
    /// by sorting those few (walking the index would read everyone).
    func indexedSearch(
        _ text: String, _ request: PersonListRequest
    ) async throws -> (items: [StoredPerson], total: Int) {
        let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let fts = AddPeopleSearchIndex.ftsTable
        let counts = try await sql.raw("""
            SELECT (SELECT count(*) FROM \(ident: fts) WHERE \(ident: fts) MATCH \(bind: phrase)) AS total,
                   (SELECT max(id) FROM \(ident: PersonModel.schema)) AS highest
            """).first(decoding: SearchCounts.self)
        let total = counts?.total ?? 0
        guard total > request.offset else { return ([], total) }
        let column = request.sort.column
        let index: String? = switch request.sort {
        case .id, .email: nil
        case .name: "people_name_idx"
        case .jobTitle: "people_job_title_idx"
        case .department: "people_department_idx"
        }
        var walk = ""
        if let index, total * 20 >= counts?.highest ?? 0 {
            walk = "INDEXED BY \(index)"
        }
        let direction = request.isDescending ? "DESC" : "ASC"
        let rows = try await sql.raw("""
            SELECT * FROM \(ident: PersonModel.schema) \(unsafeRaw: walk)
            WHERE id IN (SELECT rowid FROM \(ident: fts) WHERE \(ident: fts) MATCH \(bind: phrase))
            ORDER BY \(ident: column) \(unsafeRaw: direction), id \(unsafeRaw: direction)
            LIMIT \(bind: request.limit) OFFSET \(bind: request.offset)
            """).all()
        return (try rows.map { try StoredPerson($0.decode(fluentModel: PersonModel.self)) }, total)
    }
}
