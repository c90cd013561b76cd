import FluentKit
import SQLKit

extension Database {
    /// Creates an index on one column through SQLKit (Fluent's schema builder has no indexes).
    func createIndex(named name: String, on table: String, column: String) async throws {
        guard let sql = self as? any SQLDatabase else { return }
        try await sql.create(index: name).on(table).column(column).run()
    }
}
