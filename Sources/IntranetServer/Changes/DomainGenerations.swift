/// A point in the history of each ``ChangeDomain``: one counter per domain, moved on by every
/// change of that domain. Whatever is remembered (a cached answer, the people search's
/// snapshot) is tagged with the generations it was read at, and is current while the
/// generations of the domains it depends on have not moved.
struct DomainGenerations: Sendable, Equatable {
    private var announcements: UInt64 = 0
    private var people: UInt64 = 0
    private var accounts: UInt64 = 0
    private var acknowledgements: UInt64 = 0

    /// The counter of one domain.
    subscript(domain: ChangeDomain) -> UInt64 {
        get {
            switch domain {
            case .announcements: announcements
            case .people: people
            case .accounts: accounts
            case .acknowledgements: acknowledgements
            }
        }
        set {
            switch domain {
            case .announcements: announcements = newValue
            case .people: people = newValue
            case .accounts: accounts = newValue
            case .acknowledgements: acknowledgements = newValue
            }
        }
    }

    /// Moves on the counter of each domain in `domains`.
    mutating func advance(_ domains: ChangeDomains) {
        for domain in ChangeDomain.allCases where domains.contains(ChangeDomains(domain)) {
            self[domain] &+= 1
        }
    }

    /// Whether nothing in `domains` moved between `self` and `other`.
    func agrees(with other: DomainGenerations, on domains: ChangeDomains) -> Bool {
        ChangeDomain.allCases.allSatisfy { !domains.contains(ChangeDomains($0)) || self[$0] == other[$0] }
    }
}
