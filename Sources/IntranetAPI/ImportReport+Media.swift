import Foundation

extension ImportReport {
    /// What a WordPress import did with the export's media: the files of its attachment items
    /// and the uploads its posts show or link, each stored as an attachment of every imported
    /// post it belongs to.
    public struct Media: Codable, Sendable, Equatable {
        /// A file that could not be read or stored, and why; the import went on without it
        /// (the body keeps the file's old URL), and the next import tries it again.
        public struct Failure: Codable, Sendable, Equatable {
            /// The file's URL on the WordPress site.
            public var url: String
            /// Why: `not found`, `the site answered HTTP 500`, `not received within 30 s`,
            /// `larger than … bytes (ATTACHMENT_MAX_BYTES)`, a redirect to another host, …
            public var reason: String

            public init(url: String, reason: String) {
                self.url = url
                self.reason = reason
            }
        }

        /// Where the files were read: `directory` (a copy of the site's uploads) or `site`
        /// (downloaded from it); `nil` when none were read (bodies pointed to media brought
        /// by an earlier import).
        public var source: String?
        /// Files read from the directory or downloaded (each once, however many posts it
        /// belongs to).
        public var filesRead = 0
        /// Attachments added (for a dry run: to be added), one per file and announcement.
        public var attached = 0
        /// Files already brought by an earlier import for their announcement: not read again.
        public var alreadyImported = 0
        /// Announcements whose body now points to the stored files instead of the old site.
        public var bodiesRewritten = 0
        /// Attachment items that belong to no imported post (uploaded to a skipped post, or to
        /// none) and that no imported post shows: not brought.
        public var unattached = 0
        /// The files that could not be read or stored.
        public var failed: [Failure] = []

        public init(source: String? = nil) {
            self.source = source
        }

        /// The report's lines about media.
        func summaryLines(dryRun: Bool) -> [String] {
            let from = source.map { $0 == "site" ? " downloaded from the site" : " read from the \($0)" } ?? ""
            var lines = [
                "  media\(from): \(filesRead) files read, \(attached) attachments \(dryRun ? "to add" : "added"), "
                    + "\(alreadyImported) already imported, \(bodiesRewritten) bodies pointed to them, \(unattached) belonging to no imported post"
            ]
            for failure in failed {
                lines.append("  media not imported (\(failure.url)): \(failure.reason)")
            }
            return lines
        }
    }
}
