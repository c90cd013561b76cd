/// An announcement as a search result shows it: its title, and the body its snippet is cut
/// from (kept as plain text under its id and revision by ``PlainBodies``).
struct FoundAnnouncement: Sendable, Equatable {
    var id: Int
    var title: String
    var body: String?
    var revision: Int
}
