import Foundation
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
/// AnnouncementPatch(publishAt: .null)          // {"publishAt":null}: publish at once
/// AnnouncementPatch(pinned: true)              // {"pinned":true}
/// ```
///
/// The publishing properties (status, times, pin, importance, audience) need API version 3.0
/// to be read back, and are written under any version.
public struct AnnouncementPatch: Encodable, Sendable, Equatable {
    /// The new title, or `RequiredPatchField.absent` to keep it.
    public var title: RequiredPatchField<String>
    /// The new body, `PatchField.null` to clear it, or `PatchField.absent` to keep it.
    public var body: PatchField<String>
    /// Who may read it from now on, or `RequiredPatchField.absent` to keep that.
    public var readers: RequiredPatchField<AnnouncementReaders>
    /// Draft or published, or `RequiredPatchField.absent` to keep it.
    public var status: RequiredPatchField<AnnouncementStatus>
    /// When readers first see it, `PatchField.null` for at once, or absent to keep it.
    public var publishAt: PatchField<Date>
    /// When readers stop seeing it, `PatchField.null` for never, or absent to keep it.
    public var expiresAt: PatchField<Date>
    /// Whether it is pinned, or absent to keep it.
    public var pinned: RequiredPatchField<Bool>
    /// When the pin ends, `PatchField.null` for never, or absent to keep it.
    public var pinnedUntil: PatchField<Date>
    /// Whether it is marked important, or absent to keep it.
    public var important: RequiredPatchField<Bool>
    /// The departments and teams it is addressed to, `PatchField.null` for none, or absent.
    public var audience: PatchField<AnnouncementAudience>
    /// A new body written as Markdown (the server makes the HTML and keeps the source), instead
    /// of `body`; absent to keep the body.
    public var markdown: RequiredPatchField<String> = .absent
    /// Ask readers to acknowledge it (`required: false` stops asking, `newRound: true` asks
    /// everyone again), or absent to keep what is asked.
    public var acknowledgement: RequiredPatchField<AcknowledgementSetting> = .absent

    /// Creates a patch.
    ///
    /// - Parameters:
    ///   - title: the new title, or `nil` to keep the current one.
    ///   - body: what to do with the body (keep it by default).
    ///   - readers: who may read it, or `nil` to keep that (editors and admins only).
    ///   - status: draft or published, or `nil` to keep it.
    ///   - publishAt: the publication time (kept by default).
    ///   - expiresAt: the expiry (kept by default).
    ///   - pinned: pin or unpin, or `nil` to keep it.
    ///   - pinnedUntil: the end of the pin (kept by default).
    ///   - important: mark or unmark as important, or `nil` to keep it.
    ///   - audience: the departments and teams (kept by default).
    public init(
        title: String? = nil, body: PatchField<String> = .absent, readers: AnnouncementReaders? = nil, status: AnnouncementStatus? = nil,
        publishAt: PatchField<Date> = .absent, expiresAt: PatchField<Date> = .absent, pinned: Bool? = nil,
        pinnedUntil: PatchField<Date> = .absent, important: Bool? = nil, audience: PatchField<AnnouncementAudience> = .absent
    ) {
        self.title = title.map(RequiredPatchField.value) ?? .absent
        self.body = body
        self.readers = readers.map(RequiredPatchField.value) ?? .absent
        self.status = status.map(RequiredPatchField.value) ?? .absent
        self.publishAt = publishAt
        self.expiresAt = expiresAt
        self.pinned = pinned.map(RequiredPatchField.value) ?? .absent
        self.pinnedUntil = pinnedUntil
        self.important = important.map(RequiredPatchField.value) ?? .absent
        self.audience = audience
    }

    private enum CodingKeys: String, CodingKey {
        case title, body, readers, status, publishAt, expiresAt, pinned, pinnedUntil, important, audience, markdown, acknowledgement
    }

    /// Writes only the fields the patch mentions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(readers, forKey: .readers)
        try container.encode(status, forKey: .status)
        try container.encode(publishAt, forKey: .publishAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(pinnedUntil, forKey: .pinnedUntil)
        try container.encode(important, forKey: .important)
        try container.encode(audience, forKey: .audience)
        try container.encode(markdown, forKey: .markdown)
        try container.encode(acknowledgement, forKey: .acknowledgement)
    }
}
