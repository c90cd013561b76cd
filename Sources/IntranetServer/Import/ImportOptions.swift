import Foundation

/// How an import runs.
public struct ImportOptions: Sendable, Equatable {
    /// Report what would happen and change nothing.
    public var dryRun = false
    /// Import private and password-protected posts, readable only by ``owner``.
    public var includePrivate = false
    /// Import published pages too, as announcements.
    public var includePages = false
    /// The admin's user id the private posts are restricted to.
    public var owner: Int?
    /// Import scheduled posts (`future`) too, published at their date.
    public var includeScheduled = false
    /// Bring the export's media along, and from where; `nil` brings none (a body the import
    /// changes still points to the media an earlier import brought).
    public var media: MediaImportOptions?

    public init(
        dryRun: Bool = false, includePrivate: Bool = false, includePages: Bool = false, owner: Int? = nil, includeScheduled: Bool = false,
        media: MediaImportOptions? = nil
    ) {
        self.dryRun = dryRun
        self.includePrivate = includePrivate
        self.includePages = includePages
        self.owner = owner
        self.includeScheduled = includeScheduled
        self.media = media
    }
}

/// How far an import is.
public struct ImportProgress: Sendable, Equatable {
    /// Items of the export read so far (posts, pages, attachments…).
    public var items: Int
    /// Bytes of the file parsed so far.
    public var bytes: Int
}
