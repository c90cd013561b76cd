import Foundation

/// What a WordPress import did (or, for a dry run, would do): the answer of `POST /imports/wordpress`,
/// and what `intranet-server import wordpress` and `intranet import wordpress` print.
public struct ImportReport: Codable, Sendable, Equatable {
    /// A post whose title was made or shortened.
    public struct Title: Codable, Sendable, Equatable {
        /// The post's id on the WordPress site.
        public var postId: Int
        /// The title as imported.
        public var title: String

        public init(postId: Int, title: String) {
            self.postId = postId
            self.title = title
        }
    }

    /// A `<wp:author>` of the export.
    public struct Author: Codable, Sendable, Equatable {
        /// The WordPress login.
        public var login: String
        /// The name WordPress showed.
        public var displayName: String
        /// Whether an Intranet account has this username (none is ever created by an import).
        public var hasAccount: Bool

        public init(login: String, displayName: String, hasAccount: Bool) {
            self.login = login
            self.displayName = displayName
            self.hasAccount = hasAccount
        }
    }

    /// True when nothing was changed.
    public var dryRun: Bool
    /// The site the posts came from, as remembered for the next import.
    public var site: String
    /// The export's WXR version.
    public var wxrVersion: String
    /// Posts that became new announcements.
    public var created = 0
    /// Announcements changed because their post changed since the last import.
    public var updated = 0
    /// Posts already imported and unchanged.
    public var unchanged = 0
    /// Previously imported posts that are no longer published (now draft, private, trashed…):
    /// their announcements are restricted to editors and admins, never left readable by all.
    public var withdrawn = 0
    /// What was not imported, by reason: a status (`draft`, `pending`, `future`, `trash`,
    /// `private`, `passwordProtected`, `otherStatus`), a type (`page`, `attachment`,
    /// `navMenuItem`, `otherType`), `comments`, or `noPostId`.
    public var skipped: [String: Int] = [:]
    /// Titles longer than 255 characters, cut at a word with "…".
    public var titlesShortened: [Title] = []
    /// Empty titles, made from the first words of the body (or `(untitled)`).
    public var titlesMade: [Title] = []
    /// Posts whose body lost something to the sanitiser (scripts, event handlers, …).
    public var bodiesCleaned = 0
    /// The export's authors.
    public var authors: [Author] = []
    /// What the import did with the export's media (its attachments and the uploads its posts
    /// show or link); absent when it was not asked to bring them and pointed no body to media
    /// brought before (and from servers older than media imports).
    public var media: Media?

    /// An empty report for `site`; the counts start at zero.
    public init(dryRun: Bool, site: String, wxrVersion: String) {
        self.dryRun = dryRun
        self.site = site
        self.wxrVersion = wxrVersion
    }

    /// The report as lines for a person.
    public var summary: String {
        var lines = [
            "\(dryRun ? "Dry run of the import" : "Imported") from \(site) (WXR \(wxrVersion))",
            "  created: \(created), updated: \(updated), unchanged: \(unchanged), withdrawn: \(withdrawn)",
        ]
        let skippedText = skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("  skipped: \(skippedText.isEmpty ? "nothing" : skippedText)")
        lines.append("  bodies cleaned by the sanitiser: \(bodiesCleaned)")
        for title in titlesShortened {
            lines.append("  title shortened (post \(title.postId)): \(title.title)")
        }
        for title in titlesMade {
            lines.append("  title made from the body (post \(title.postId)): \(title.title)")
        }
        for author in authors {
            lines.append("  author \(author.login) (\(author.displayName)): \(author.hasAccount ? "has an account" : "no account")")
        }
        if let media { lines += media.summaryLines(dryRun: dryRun) }
        return lines.joined(separator: "\n")
    }
}

/// How far an import in flight is: the answer of `GET /imports/progress/{id}`.
public struct ImportStatus: Codable, Sendable, Equatable {
    /// The import's progress id, when the server says it (`POST /imports/progress`).
    public var id: String?
    /// Where the import is.
    public enum Stage: String, Codable, Sendable {
        /// Reserved; no upload has named it yet.
        case waiting
        /// The upload is arriving.
        case receiving
        /// The export is being read and imported.
        case importing
        /// Finished: the upload's answer carries the report.
        case finished
        /// Refused or failed: the upload's answer says why.
        case failed
    }

    /// Where the import is.
    public var stage: Stage
    /// Bytes of the upload received so far.
    public var bytesReceived: Int
    /// The upload's size, when the client declared it (`Content-Length`).
    public var totalBytes: Int?
    /// Bytes of the export read by the importer so far.
    public var bytesParsed: Int
    /// Items (posts, pages, attachments…) of the export read so far.
    public var itemsRead: Int

    public init(id: String? = nil, stage: Stage, bytesReceived: Int, totalBytes: Int?, bytesParsed: Int, itemsRead: Int) {
        self.id = id
        self.stage = stage
        self.bytesReceived = bytesReceived
        self.totalBytes = totalBytes
        self.bytesParsed = bytesParsed
        self.itemsRead = itemsRead
    }
}
