import FluentKit
import SQLKit

/// One way of answering a search of the directory: a page of the people whose search text
/// contains `text`, in the request's order, and how many match in all.
///
/// ``FluentPersonRepository`` asks its strategies in turn, fastest first, and the first that can
/// answer does: the snapshot in memory (``InMemoryPeopleSearch``), the database's trigram index
/// for texts of three characters or more (``SQLiteTrigramPeopleSearch``,
/// ``PostgresTrigramPeopleSearch``), and a plain `LIKE` (``PlainPeopleSearch``), which always
/// answers. Every strategy gives the same page and count for the same directory.
protocol PeopleSearchStrategy: Sendable {
    /// The page and count for `text` (already folded by `PersonRules.searchKey`), or `nil` when
    /// this strategy cannot answer now (the next one is asked).
    func search(_ text: String, _ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int)?
}

extension FluentPersonRepository {
    /// The strategies for a database, in the order they are asked.
    static func searchStrategies(on database: any Database, index: PeopleSearchIndex?) -> [any PeopleSearchStrategy] {
        var strategies: [any PeopleSearchStrategy] = []
        if let index { strategies.append(InMemoryPeopleSearch(index: index, database: database)) }
        if let sql = database as? any SQLDatabase {
            switch sql.dialect.name {
            case "sqlite": strategies.append(SQLiteTrigramPeopleSearch(sql: sql))
            case "postgresql": strategies.append(PostgresTrigramPeopleSearch(sql: sql))
            default: break
            }
        }
        strategies.append(PlainPeopleSearch(database: database))
        return strategies
    }
}

/// How many people a search matches, and the highest id (how many there are, near enough): the
/// index searches choose their plan by the two.
struct SearchCounts: Decodable {
    let total: Int
    let highest: Int?
}

/// A search through a trigram index, which can answer texts of three characters or more only;
/// shorter ones go to the next strategy.
protocol TrigramPeopleSearch: PeopleSearchStrategy {
    /// The page and count for a text of three characters or more.
    func indexedSearch(_ text: String, _ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int)
}

extension TrigramPeopleSearch {
    func search(_ text: String, _ request: PersonListRequest) async throws -> (items: [StoredPerson], total: Int)? {
        guard text.count >= 3 else { return nil }
        return try await indexedSearch(text, request)
    }
}
