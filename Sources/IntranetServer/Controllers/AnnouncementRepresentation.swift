import Foundation
import HTTPTypes
import IntranetAPI
import NIOCore

/// Encodes announcements as the negotiated version's shape, in the negotiated format, with
/// their `ETag` and headers.
enum AnnouncementRepresentation {
    /// The detail of the negotiated version as shown at `now`; from 2.0 on, editors and admins
    /// also see `readers` (and from 3.0, `audience`).
    ///
    /// In 3.0, `acknowledgedAt` is when the reader asking acknowledged the current round: such an
    /// answer is theirs alone, and its tag says so (`a` and the instant in milliseconds).
    static func detail(
        _ announcement: StoredAnnouncement, as representation: Representation, showsReaders: Bool, at now: Date,
        acknowledgedAt: Date? = nil
    ) throws -> CachedResponse {
        let body: ByteBuffer
        switch representation.version {
        case .v1_0:
            body = try representation.encode(AnnouncementV1.Detail(announcement))
        case .v2_0 where showsReaders:
            body = try representation.encode(AnnouncementV2.EditorDetail(announcement))
        case .v2_0:
            body = try representation.encode(AnnouncementV2.Detail(announcement))
        case .v3_0:
            body = try representation.encode(
                AnnouncementV3.Detail(announcement, showsReaders: showsReaders, at: now, acknowledgedAt: acknowledgedAt))
        }
        let acknowledged = acknowledgedAt.map { "a\(Int64(($0.timeIntervalSince1970 * 1000).rounded()))" } ?? ""
        let isV3 = representation.version >= .v3_0
        let etag = EntityTag.forAnnouncement(
            id: announcement.id, revision: announcement.revision, version: representation.version,
            showsReaders: showsReaders && representation.version >= .v2_0,
            pinEnded: isV3 && announcement.publishing.pinned && !announcement.isPinned(at: now),
            suffix: acknowledged + representation.tagSuffix)
        let headers: HTTPFields = [
            .contentType: representation.contentType,
            .eTag: etag,
            .apiVersion: representation.version.rawValue,
            .vary: VersionMiddleware.vary,
        ]
        return CachedResponse(body: body, etag: etag, headers: headers, asksAcknowledgement: isV3 && announcement.acknowledgement.required)
    }

    static func list(
        _ announcements: [StoredAnnouncement], as representation: Representation, links: PageLinks, at now: Date
    ) throws -> CachedResponse {
        let body: ByteBuffer
        switch representation.version {
        case .v1_0:
            body = try representation.encode(announcements.map(AnnouncementV1.ListItem.init))
        case .v2_0:
            body = try representation.encode(announcements.map(AnnouncementV2.ListItem.init))
        case .v3_0:
            body = try representation.encode(announcements.map { AnnouncementV3.ListItem($0, at: now) })
        }
        let etag = EntityTag.forContent(body.readableBytesView, suffix: representation.tagSuffix)
        let headers: HTTPFields = [
            .contentType: representation.contentType,
            .eTag: etag,
            .total: String(links.total),
            .page: String(links.page),
            .perPage: String(links.perPage),
            .link: links.link,
            .apiVersion: representation.version.rawValue,
            .vary: VersionMiddleware.vary,
        ]
        return CachedResponse(body: body, etag: etag, headers: headers)
    }
}

extension AnnouncementV1.Detail {
    init(_ announcement: StoredAnnouncement) {
        self.init(id: announcement.id, title: announcement.title, body: announcement.body)
    }
}

extension AnnouncementV1.ListItem {
    init(_ announcement: StoredAnnouncement) {
        self.init(id: announcement.id, title: announcement.title, body: announcement.body)
    }
}

extension AnnouncementV2.ListItem {
    init(_ announcement: StoredAnnouncement) {
        self.init(id: announcement.id, title: announcement.title)
    }
}

extension AnnouncementV2.EditorDetail {
    init(_ announcement: StoredAnnouncement) {
        self.init(
            id: announcement.id,
            title: announcement.title,
            body: announcement.body,
            createdAt: announcement.createdAt,
            updatedAt: announcement.updatedAt,
            readers: announcement.readers.map(AnnouncementReaders.only) ?? .everyone
        )
    }
}

extension AnnouncementV2.Detail {
    init(_ announcement: StoredAnnouncement) {
        self.init(
            id: announcement.id,
            title: announcement.title,
            body: announcement.body,
            createdAt: announcement.createdAt,
            updatedAt: announcement.updatedAt
        )
    }
}

extension AnnouncementV3.ListItem {
    init(_ announcement: StoredAnnouncement, at now: Date) {
        self.init(
            id: announcement.id, title: announcement.title, createdAt: announcement.createdAt, updatedAt: announcement.updatedAt,
            publishing: announcement.shownPublishing(at: now), acknowledgement: announcement.acknowledgement.requirement)
    }
}

extension AnnouncementV3.Detail {
    /// The 3.0 detail as shown at `now`; with `showsReaders`, an editor's (`readers`, `audience`).
    init(_ announcement: StoredAnnouncement, showsReaders: Bool, at now: Date, acknowledgedAt: Date? = nil) {
        self.init(
            id: announcement.id, title: announcement.title, body: announcement.body, createdAt: announcement.createdAt,
            updatedAt: announcement.updatedAt, publishing: announcement.shownPublishing(at: now),
            acknowledgement: announcement.acknowledgement.shown(acknowledgedAt: acknowledgedAt), attachments: announcement.attachments,
            editorView: showsReaders
                ? (announcement.readers.map(AnnouncementReaders.only) ?? .everyone, announcement.audience, announcement.markdown) : nil)
    }
}
