import IntranetAPI

/// Lays out accounts as an aligned table: right-aligned id, then user name, role and display
/// name, each column as wide as its widest cell (display width, so accents and wide
/// characters line up); the display name is cut with `…` at the terminal's edge.
public struct UserTable: Sendable {
    /// The columns available.
    public var width: Int
    /// Whether the header is bold.
    public var isStyled: Bool

    /// Creates a table layout.
    ///
    /// - Parameters:
    ///   - width: the terminal width in columns.
    ///   - isStyled: whether the output shows ANSI styles.
    public init(width: Int, isStyled: Bool) {
        self.width = width
        self.isStyled = isStyled
    }

    /// The table's lines: a header and one row per account, in the order given.
    ///
    /// - Parameter users: the accounts.
    public func lines(for users: [User]) -> [String] {
        guard !users.isEmpty else { return ["No users."] }
        let ids = users.map { String($0.id) }
        let idWidth = max(2, ids.map(\.count).max() ?? 2)
        let nameWidth = max(8, users.map { DisplayWidth.of($0.username) }.max() ?? 8)
        let roleWidth = UserRole.allCases.map(\.rawValue.count).max() ?? 6
        let used = idWidth + nameWidth + roleWidth + 6
        let displayWidth = max(5, width - used)
        func row(_ id: String, _ name: String, _ role: String, _ display: String) -> String {
            String(repeating: " ", count: idWidth - id.count) + id + "  "
                + DisplayWidth.padded(name, toWidth: nameWidth) + "  "
                + DisplayWidth.padded(role, toWidth: roleWidth) + "  "
                + DisplayWidth.truncate(display, toWidth: displayWidth)
        }
        let header = row("ID", "USERNAME", "ROLE", "DISPLAY NAME")
        var lines = [TextStyle.bold.apply(to: header, isStyled: isStyled)]
        for (id, user) in zip(ids, users) {
            lines.append(row(id, user.username, user.role.rawValue, user.displayName))
        }
        return lines
    }
}
