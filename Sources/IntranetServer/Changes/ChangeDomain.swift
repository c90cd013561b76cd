/// A part of the data that changes on its own: each has its own revision in the database, its
/// own generation in memory, and its own name in the PostgreSQL change feed, so a write to one
/// leaves what was remembered of the others in place.
enum ChangeDomain: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// Announcements and their reader lists.
    case announcements = 0
    /// The people directory and its org chart.
    case people = 1
    /// Accounts and their sessions.
    case accounts = 2
    /// Readers' acknowledgements of announcements (what each reader's own answers and the
    /// editors' reach reports show; the announcements themselves do not change).
    case acknowledgements = 3

    /// The name the change feed's triggers send (`<schema>:<name>`).
    var name: String {
        switch self {
        case .announcements: "announcements"
        case .people: "people"
        case .accounts: "accounts"
        case .acknowledgements: "acknowledgements"
        }
    }

    /// The domain a change feed name names.
    init?(name: some StringProtocol) {
        guard let domain = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = domain
    }

    /// The row of `change_revisions` that counts this domain's committed writes.
    var revisionRow: Int { rawValue + 1 }

    var description: String { name }
}

/// A set of ``ChangeDomain``s: what a write changed, or what a cached answer depends on.
struct ChangeDomains: OptionSet, Sendable, Hashable, CustomStringConvertible {
    let rawValue: UInt8

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init(_ domain: ChangeDomain) {
        rawValue = 1 << UInt8(domain.rawValue)
    }

    static let announcements = Self(.announcements)
    static let people = Self(.people)
    static let accounts = Self(.accounts)
    static let acknowledgements = Self(.acknowledgements)
    static let all: Self = [.announcements, .people, .accounts, .acknowledgements]

    /// The domains in the set, in declaration order.
    var members: [ChangeDomain] { ChangeDomain.allCases.filter { contains(Self($0)) } }

    var description: String { "[" + members.map(\.name).joined(separator: ", ") + "]" }
}

extension ChangeDomains {
    /// The data a `GET` of `path` reads, by the one rule every cached answer follows: the
    /// announcement routes (the API's `/announcements…` and the web's `/` home page) read
    /// announcements, the directory's (`/people…`, `/org`) read people, and any other path is
    /// taken to read everything, so that a route added later is never kept past a change it
    /// shows.
    static func read(byPath path: some StringProtocol) -> ChangeDomains {
        if path == "/" || path == "/announcements" || path.hasPrefix("/announcements/") { return .announcements }
        if path == "/people" || path.hasPrefix("/people/") || path == "/org" || path.hasPrefix("/org/") { return .people }
        return .all
    }
}
