import IntranetAPI
import RESTRepository

/// A partial change to an announcement, sent as a JSON Merge Patch.
///
/// The title can be left alone or set, never cleared (the server requires one); the body can
/// be left alone, cleared, or set; the readers can be left alone or set (to
/// `AnnouncementReaders.everyone`, sent as `null`, or to a list of user ids):
///
/// ```swift
/// AnnouncementPatch(title: "New title")        // {"title":"New title"}
/// AnnouncementPatch(body: .null)               // {"body":null}
/// AnnouncementPatch(readers: .only([2, 7]))    // {"readers":[2,7]}
/// AnnouncementPatch()                          // {}: changes nothing
/// ```
public struct AnnouncementPatch: Encodable, Sendable, Equatable {
    /// The new title, or `RequiredPatchField.absent` to keep it.
    public var title: RequiredPatchField<String>
    /// The new body, `PatchField.null` to clear it, or `PatchField.absent` to keep it.
    public var body: PatchField<String>
    /// Who may read it from now on, or `RequiredPatchField.absent` to keep that.
    public var readers: RequiredPatchField<AnnouncementReaders>

    /// Creates a patch.
    ///
    /// - Parameters:
    ///   - title: the new title, or `nil` to keep the current one.
    ///   - body: what to do with the body (keep it by default).
    ///   - readers: who may read it, or `nil` to keep that (editors and admins only).
    public init(title: String? = nil, body: PatchField<String> = .absent, readers: AnnouncementReaders? = nil) {
        self.title = title.map(RequiredPatchField.value) ?? .absent
        self.body = body
        self.readers = readers.map(RequiredPatchField.value) ?? .absent
    }

    private enum CodingKeys: String, CodingKey { case title, body, readers }

    /// Writes only the fields the patch mentions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(readers, forKey: .readers)
    }
}
