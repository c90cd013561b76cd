import SQLKit

/// Searches of three characters or more on PostgreSQL, through the `pg_trgm` index.
struct PostgresTrigramPeopleSearch: TrigramPeopleSearch {
    let sql: any SQLDatabase

    /// A search of three characters or more on PostgreSQL, where the `pg_trgm` index (see
    /// ``AddPeopleSearchIndex``) answers the `LIKE`. As on SQLite, the count decides the plan:
    /// few matches are collected through the index first and then sorted (left to itself, the
    /// planner may walk the sort's index instead and read everyone for a rare text: 81 ms
    /// against 13 for 100,000 people); many are left to the planner, which walks the index and
    /// stops at the page.
    func indexedSearch(
        _ text: String, _ request: PersonListRequest
    ) async throws -> (items: [StoredPerson], total: Int) {
        let matches = SearchPattern.like("search_key", containing: text)
        let counts = try await sql.raw("""
            SELECT (SELECT count(*) FROM \(ident: PersonModel.schema) WHERE \(matches)) AS total,
                   (SELECT max(id) FROM \(ident: PersonModel.schema)) AS highest
            """).first(decoding: SearchCounts.self)
        let total = counts?.total ?? 0
        guard total > request.offset else { return ([], total) }
        let highest = counts?.highest ?? 0
        let column = request.sort.column
        let direction = request.isDescending ? "DESC" : "ASC"
        let order: SQLQueryString = "ORDER BY \(ident: column) \(unsafeRaw: direction), id \(unsafeRaw: direction) LIMIT \(bind: request.limit) OFFSET \(bind: request.offset)"
        let query: SQLQueryString = total * 20 >= highest
            ? "SELECT * FROM \(ident: PersonModel.schema) WHERE \(matches) \(order)"
            : "WITH found AS MATERIALIZED (SELECT * FROM \(ident: PersonModel.schema) WHERE \(matches)) SELECT * FROM found \(order)"
        let rows = try await sql.raw(query).all()
        return (try rows.map { try StoredPerson($0.decode(fluentModel: PersonModel.self)) }, total)
    }
}
