/// Which restricted announcements name whom, and every audience entry: what the response
/// cache's readers' views are made of (``ResponseCache/view(for:)``). Named readers are read in
/// bulk; an audience is resolved for one reader at a time, from where they stand in the org
/// chart (``OrgPlacement``), so that a move costs one small query for the person who moved,
/// not a read of every department's members.
struct ReaderGrants: Sendable {
    /// The announcements naming each user who is named in any.
    var announcementsByReader: [Int: [Int]]
    /// Every entry of every audience.
    var audiences: [AudienceEntry] = []

    /// Whether any announcement has an audience: readers' views then follow the people
    /// directory too (a move of department or manager changes them).
    var hasAudiences: Bool { !audiences.isEmpty }

    /// The view of each reader named in a restricted announcement: its key, the announcements in
    /// order (a digest of them when the list is long), and the announcements themselves, from
    /// which the view's answers are built. Readers named in the same ones share one.
    var views: [Int: ReaderView] {
        var views: [String: ReaderView] = [:]
        return announcementsByReader.mapValues { announcements in
            let view = ReaderView(announcements: Set(announcements))
            if let shared = views[view.key] { return shared }
            views[view.key] = view
            return view
        }
    }

    /// The announcements whose audience holds someone placed at `placement`: their department,
    /// or a team whose head is they or a manager above them. Departments compare ignoring case.
    func audienceAnnouncements(for placement: OrgPlacement) -> Set<Int> {
        var ids = Set<Int>()
        let department = placement.department?.lowercased()
        for entry in audiences {
            if let team = entry.teamID, placement.chain.contains(team) { ids.insert(entry.announcementID) }
            if let name = entry.department, name.lowercased() == department { ids.insert(entry.announcementID) }
        }
        return ids
    }
}

/// One entry of an announcement's audience.
struct AudienceEntry: Sendable, Equatable {
    var announcementID: Int
    var department: String?
    var teamID: Int?
}

/// Where an account's person stands in the org chart: their department, and their person id
/// with every manager's above them. Empty for an account linked to no person.
struct OrgPlacement: Sendable, Equatable {
    var department: String?
    var chain: Set<Int> = []
}

/// What the readers of one view see beyond the unrestricted announcements.
struct ReaderView: Sendable, Equatable {
    /// The key their answers are kept under.
    let key: String
    /// The restricted announcements each of them may read.
    let announcements: Set<Int>

    /// The view of readers who may read these restricted announcements: the key lists them in
    /// order (a digest of the list when it is long), so equal sets share a key.
    init(announcements: Set<Int>) {
        let list = announcements.sorted().map(String.init).joined(separator: ",")
        self.key = announcements.isEmpty ? "r" : (list.utf8.count <= 64 ? "r:" + list : "r#" + SessionToken.hash(list))
        self.announcements = announcements
    }

    /// The view of readers named in no restricted announcement.
    static let unnamed = ReaderView(announcements: [])
}
