/// An announcement as a search result shows it: its title, and its body as the plain text its
/// snippet is cut from (kept by ``PlainBodies`` for announcements found again).
struct FoundAnnouncement: Sendable {
    var id: Int
    var title: String
    var body: PlainBodies.Entry
}
