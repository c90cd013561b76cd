import Foundation

/// The sample organisation a new database gets: Brightwater, the invented company of the
/// seeded announcements (its IT lead, facilities manager, CFO, security officer and head of
/// people appear in both), 40 people over five levels.
enum SeedPeople {
    struct Entry: Sendable {
        let name: String
        let jobTitle: String
        let department: String
        /// The manager's name (listed earlier), `nil` for the top.
        let manager: String?
        let location: String?
        let phone: String?
    }

    private static let harbour3 = "Harbour Building, floor 3"
    private static let harbour4 = "Harbour Building, floor 4"
    private static let lab = "StormCell lab, Dock Road"

    static let all: [Entry] = [
        Entry(name: "Margit Olsen", jobTitle: "Chief Executive Officer", department: "Executive", manager: nil, location: harbour4, phone: "+351 21 555 0100"),

        Entry(name: "Amélie Durand", jobTitle: "Chief Financial Officer", department: "Finance", manager: "Margit Olsen", location: harbour4, phone: "+351 21 555 0110"),
        Entry(name: "Zoë Lefèvre", jobTitle: "Head of IT", department: "IT", manager: "Margit Olsen", location: harbour3, phone: "+351 21 555 0120"),
        Entry(name: "Chloé Nakamura-Weiß", jobTitle: "Head of People", department: "People", manager: "Margit Olsen", location: harbour4, phone: "+351 21 555 0130"),
        Entry(name: "Rafael Oliveira", jobTitle: "Chief Technology Officer", department: "Engineering", manager: "Margit Olsen", location: lab, phone: "+351 21 555 0140"),
        Entry(name: "Ingrid Halvorsen", jobTitle: "Head of Operations", department: "Operations", manager: "Margit Olsen", location: harbour3, phone: "+351 21 555 0150"),

        Entry(name: "Tomasz Kowalski", jobTitle: "Finance Manager", department: "Finance", manager: "Amélie Durand", location: harbour4, phone: "+351 21 555 0111"),
        Entry(name: "Priya Raman", jobTitle: "Financial Controller", department: "Finance", manager: "Amélie Durand", location: harbour4, phone: "+351 21 555 0112"),
        Entry(name: "Kwame Mensah", jobTitle: "Security Officer", department: "IT", manager: "Zoë Lefèvre", location: harbour3, phone: "+351 21 555 0121"),
        Entry(name: "Lena Fischer", jobTitle: "IT Service Manager", department: "IT", manager: "Zoë Lefèvre", location: harbour3, phone: "+351 21 555 0122"),
        Entry(name: "Sofia Rossi", jobTitle: "HR Business Partner", department: "People", manager: "Chloé Nakamura-Weiß", location: harbour4, phone: "+351 21 555 0131"),
        Entry(name: "Daniel Cohen", jobTitle: "Recruitment Lead", department: "People", manager: "Chloé Nakamura-Weiß", location: harbour4, phone: nil),
        Entry(name: "Hannah Becker", jobTitle: "Head of Hardware", department: "Engineering", manager: "Rafael Oliveira", location: lab, phone: "+351 21 555 0141"),
        Entry(name: "Arjun Mehta", jobTitle: "Head of Software", department: "Engineering", manager: "Rafael Oliveira", location: harbour3, phone: "+351 21 555 0142"),
        Entry(name: "João Gonçalves", jobTitle: "Facilities Manager", department: "Operations", manager: "Ingrid Halvorsen", location: harbour3, phone: "+351 21 555 0151"),
        Entry(name: "Mei Lin", jobTitle: "Supply Chain Manager", department: "Operations", manager: "Ingrid Halvorsen", location: lab, phone: "+351 21 555 0152"),

        Entry(name: "Ewa Nowak", jobTitle: "Accountant", department: "Finance", manager: "Tomasz Kowalski", location: harbour4, phone: nil),
        Entry(name: "Lucas Martin", jobTitle: "Accountant", department: "Finance", manager: "Tomasz Kowalski", location: "Remote (Porto)", phone: nil),
        Entry(name: "Oliver Grant", jobTitle: "Financial Analyst", department: "Finance", manager: "Priya Raman", location: harbour4, phone: nil),
        Entry(name: "Ahmed Haddad", jobTitle: "Security Engineer", department: "IT", manager: "Kwame Mensah", location: harbour3, phone: nil),
        Entry(name: "Julia Santos", jobTitle: "Security Analyst", department: "IT", manager: "Kwame Mensah", location: harbour3, phone: nil),
        Entry(name: "Pieter de Vries", jobTitle: "Service Desk Lead", department: "IT", manager: "Lena Fischer", location: harbour3, phone: "+351 21 555 0199"),
        Entry(name: "Aisha Bello", jobTitle: "HR Advisor", department: "People", manager: "Sofia Rossi", location: harbour4, phone: nil),
        Entry(name: "Noah Williams", jobTitle: "Recruiter", department: "People", manager: "Daniel Cohen", location: "Remote (London)", phone: nil),
        Entry(name: "Elena Popescu", jobTitle: "Hardware Engineering Lead", department: "Engineering", manager: "Hannah Becker", location: lab, phone: nil),
        Entry(name: "Matteo Ricci", jobTitle: "Firmware Lead", department: "Engineering", manager: "Hannah Becker", location: lab, phone: nil),
        Entry(name: "Yuki Tanaka", jobTitle: "Platform Team Lead", department: "Engineering", manager: "Arjun Mehta", location: harbour3, phone: nil),
        Entry(name: "Sam Okafor", jobTitle: "Apps Team Lead", department: "Engineering", manager: "Arjun Mehta", location: harbour3, phone: nil),
        Entry(name: "Carmen López", jobTitle: "Office Coordinator", department: "Operations", manager: "João Gonçalves", location: harbour3, phone: "+351 21 555 0100 x2"),
        Entry(name: "Björn Larsson", jobTitle: "Logistics Coordinator", department: "Operations", manager: "Mei Lin", location: lab, phone: nil),

        Entry(name: "Ana Ferreira", jobTitle: "Service Desk Analyst", department: "IT", manager: "Pieter de Vries", location: harbour3, phone: nil),
        Entry(name: "Tom Walsh", jobTitle: "Service Desk Analyst", department: "IT", manager: "Pieter de Vries", location: harbour3, phone: nil),
        Entry(name: "Finn Müller", jobTitle: "Hardware Engineer", department: "Engineering", manager: "Elena Popescu", location: lab, phone: nil),
        Entry(name: "Grace Kim", jobTitle: "Hardware Engineer", department: "Engineering", manager: "Elena Popescu", location: lab, phone: nil),
        Entry(name: "Leila Karimi", jobTitle: "Firmware Engineer", department: "Engineering", manager: "Matteo Ricci", location: lab, phone: nil),
        Entry(name: "Marek Dvořák", jobTitle: "Backend Engineer", department: "Engineering", manager: "Yuki Tanaka", location: "Remote (Brno)", phone: nil),
        Entry(name: "Nora Lindqvist", jobTitle: "Site Reliability Engineer", department: "Engineering", manager: "Yuki Tanaka", location: harbour3, phone: nil),
        Entry(name: "Diego Herrera", jobTitle: "iOS Engineer", department: "Engineering", manager: "Sam Okafor", location: harbour3, phone: nil),
        Entry(name: "Fatima Zahra", jobTitle: "Android Engineer", department: "Engineering", manager: "Sam Okafor", location: harbour3, phone: nil),
        Entry(name: "Ivo Petrov", jobTitle: "Receptionist", department: "Operations", manager: "Carmen López", location: harbour3, phone: "+351 21 555 0100"),
    ]

    /// `first.last@brightwater.example`, without accents or spaces (`zoe.lefevre@…`,
    /// `pieter.devries@…`).
    static func email(of name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .replacingOccurrences(of: "ß", with: "ss").replacingOccurrences(of: "ø", with: "o")
        let words = folded.split(separator: " ")
        let first = words.first.map(String.init) ?? folded
        let last = words.dropFirst().joined()
        return (last.isEmpty ? first : first + "." + last).filter { $0.isLetter || $0 == "." || $0 == "-" } + "@brightwater.example"
    }
}
