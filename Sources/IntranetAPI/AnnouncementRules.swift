import Foundation

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

extension AnnouncementRules {
    /// The earliest instant a publishing time may name (2000-01-01T00:00:00Z).
    public static let earliestInstant = Date(timeIntervalSince1970: 946_684_800)
    /// The first instant a publishing time may no longer name (2100-01-01T00:00:00Z): a
    /// mistyped year 9999 is refused, not scheduled.
    public static let endOfInstants = Date(timeIntervalSince1970: 4_102_444_800)
    /// Most departments and most teams one audience may name.
    public static let maxAudienceEntries = 100
    /// Most Unicode code points of a department name in an audience.
    public static let maxDepartmentCodePoints = 255

    /// The problem with a publishing time (`publishAt`, `expiresAt`, `pinnedUntil`), or `nil`.
    public static func instantProblem(_ date: Date) -> String? {
        guard date >= earliestInstant, date < endOfInstants else {
            return "must be between 2000-01-01T00:00:00Z and 2099-12-31T23:59:59Z"
        }
        return nil
    }

    /// The problem with publication and expiry together, or `nil`: expiry must come after
    /// publication.
    public static func windowProblem(publishAt: Date?, expiresAt: Date?) -> String? {
        guard let publishAt, let expiresAt, expiresAt <= publishAt else { return nil }
        return "must be after publishAt"
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
