/// The response store's eviction: the bound of ``ResponseStore/maximumBytes``, kept by deleting
/// the least recently used answers (`used_at`) after every ``ResponseStore/save(_:for:)``.
extension ResponseStore {
    /// Deletes the least recently used answers until the total is within ``maximumBytes``.
    ///
    /// Runs inside the transaction of ``save(_:for:)``, after its insert, so a failure rolls
    /// back the insert too.
    func evict(_ db: SQLiteConnection) throws {
        var excess = try db.integer("SELECT COALESCE(SUM(bytes), 0) FROM responses") - Int64(maximumBytes)
        guard excess > 0 else { return }
        var victims: [String] = []
        try db.query("SELECT key, bytes FROM responses ORDER BY used_at") { row in
            guard excess > 0, let key = row.text(0) else { return }
            victims.append(key)
            excess -= row.integer(1)
        }
        for key in victims {
            try db.query("DELETE FROM responses WHERE key = ?", [.text(key)])
        }
    }
}
