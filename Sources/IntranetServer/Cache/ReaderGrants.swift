/// Which restricted announcements name whom: what the response cache's readers' views are made
/// of (``ResponseCache/view(for:)``).
struct ReaderGrants: Sendable {
    /// The announcements naming each user who is named in any.
    var announcementsByReader: [Int: [Int]]

    /// The view key of each reader named in a restricted announcement: the announcements, in
    /// order (a digest of them when the list is long). Readers named in the same ones share a key.
    var viewKeys: [Int: String] {
        var keys: [String: String] = [:]
        return announcementsByReader.mapValues { announcements in
            let list = announcements.sorted().map(String.init).joined(separator: ",")
            if let key = keys[list] { return key }
            let key = list.utf8.count <= 64 ? "r:" + list : "r#" + SessionToken.hash(list)
            keys[list] = key
            return key
        }
    }
}
