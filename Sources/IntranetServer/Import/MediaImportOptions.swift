import Foundation

/// Where an import reads the export's media, and its bounds.
public struct MediaImportOptions: Sendable, Equatable {
    /// Where the files are read.
    public enum Source: Sendable, Equatable {
        /// A local copy of the site's `wp-content/uploads` directory.
        case directory(String)
        /// The site itself, over HTTP(S), only from the hosts the export names.
        case site

        /// What the report calls it.
        var name: String {
            switch self {
            case .directory: "directory"
            case .site: "site"
            }
        }
    }

    public var source: Source
    /// Most bytes one file may have (`ATTACHMENT_MAX_BYTES`).
    public var maxBytes: Int64
    /// Most bytes all stored files may have together (`ATTACHMENT_QUOTA_BYTES`).
    public var quotaBytes: Int64?
    /// Most pixels one image may have (`ATTACHMENT_MAX_PIXELS`).
    public var maxPixels: Int
    /// The time one download may take, from its request to its last byte.
    public var timeout: Duration = .seconds(30)
    /// Most files one import downloads (the rest are reported, and brought by the next import).
    public var maxFiles = 10_000
    /// How many announcements' files are read and stored at once.
    public var concurrency = 6

    /// Media from `source`, with the attachments' limits of `configuration`.
    public init(source: Source, configuration: AppConfiguration = AppConfiguration()) {
        self.source = source
        maxBytes = configuration.attachmentMaxBytes
        quotaBytes = configuration.attachmentQuotaBytes
        maxPixels = configuration.attachmentMaxPixels
    }
}
