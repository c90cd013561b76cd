/// The validation rules for announcement fields, shared by server and client.
public enum AnnouncementRules {
    /// Most Unicode code points a title may have after trimming (what PostgreSQL's
    /// `varchar(255)` counts).
    public static let maxTitleCodePoints = 255
    /// Most UTF-8 bytes a body may have.
    public static let maxBodyBytes = 1_000_000

    /// Trims leading and trailing white space and new lines, as the server does before it
    /// validates and stores a title.
    public static func normalizedTitle(_ title: String) -> String {
        title.trimmingWhitespace()
    }

    /// The problem with a title, or `nil` when it is acceptable.
    ///
    /// - Parameter title: the title as the client sent it (it is trimmed first).
    public static func titleProblem(_ title: String) -> String? {
        let trimmed = normalizedTitle(title)
        if trimmed.isEmpty {
            return "must not be empty or only white space"
        }
        if trimmed.unicodeScalars.count > maxTitleCodePoints {
            return "must be at most \(maxTitleCodePoints) characters"
        }
        return nil
    }

    /// The problem with a body, or `nil` when it is acceptable (`nil` bodies always are).
    public static func bodyProblem(_ body: String?) -> String? {
        guard let body else { return nil }
        if body.utf8.count > maxBodyBytes {
            return "must be at most \(maxBodyBytes) bytes of UTF-8"
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing Unicode white space and new lines.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
