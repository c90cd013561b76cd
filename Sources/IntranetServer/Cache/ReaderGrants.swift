/// Which restricted announcements name whom or are addressed to whom: what the response
/// cache's readers' views are made of (``ResponseCache/view(for:)``).
struct ReaderGrants: Sendable {
    /// The restricted announcements each user may read, for each user who may read any.
    var announcementsByReader: [Int: [Int]]
    /// Whether any announcement has an audience: readers' views then follow the people
    /// directory too (a move of department or manager changes them).
    var hasAudiences = false

    /// The view of each reader named in a restricted announcement: its key, the announcements in
    /// order (a digest of them when the list is long), and the announcements themselves, from
    /// which the view's answers are built. Readers named in the same ones share one.
    var views: [Int: ReaderView] {
        var views: [String: ReaderView] = [:]
        return announcementsByReader.mapValues { announcements in
            let list = announcements.sorted().map(String.init).joined(separator: ",")
            if let view = views[list] { return view }
            let view = ReaderView(
                key: list.utf8.count <= 64 ? "r:" + list : "r#" + SessionToken.hash(list), announcements: Set(announcements))
            views[list] = view
            return view
        }
    }
}

/// What the readers of one view see beyond the unrestricted announcements.
struct ReaderView: Sendable, Equatable {
    /// The key their answers are kept under.
    let key: String
    /// The restricted announcements naming each of them.
    let announcements: Set<Int>

    /// The view of readers named in no restricted announcement.
    static let unnamed = ReaderView(key: "r", announcements: [])
}
