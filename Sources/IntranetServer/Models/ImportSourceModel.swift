import FluentKit

/// Where an imported announcement came from: a WordPress site and the post's id there, with
/// a fingerprint of what the export said, so that importing again finds it (never a
/// duplicate) and knows whether it changed.
// Fluent's property wrappers hold mutable reference state; FluentKit requires this conformance.
final class ImportSourceModel: Model, @unchecked Sendable {
    static let schema = "import_sources"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "announcement_id")
    var announcementID: Int

    /// The site, as ``WordPressImporter`` normalises its URL.
    @Field(key: "site")
    var site: String

    @Field(key: "post_id")
    var postID: Int

    /// SHA-256 (hex) of the post as exported plus the import's options.
    @Field(key: "fingerprint")
    var fingerprint: String

    init() {}

    init(announcementID: Int, site: String, postID: Int, fingerprint: String) {
        self.announcementID = announcementID
        self.site = site
        self.postID = postID
        self.fingerprint = fingerprint
    }
}
