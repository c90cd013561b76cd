import Foundation
import HTTPTypes
import IntranetAPI
import NIOCore

/// Encodes announcements as the negotiated version's shape, in the negotiated format, with
/// their `ETag` and headers.
enum AnnouncementRepresentation {
    /// The detail of the negotiated version; under 2.0, editors and admins also see `readers`.
    static func detail(_ announcement: StoredAnnouncement, as representation: Representation, showsReaders: Bool) throws -> CachedResponse {
        let body: ByteBuffer
        switch representation.version {
        case .v1_0:
            body = try representation.encode(AnnouncementV1.Detail(announcement))
        case .v2_0 where showsReaders:
            body = try representation.encode(AnnouncementV2.EditorDetail(announcement))
        case .v2_0:
            body = try representation.encode(AnnouncementV2.Detail(announcement))
        }
        let etag = EntityTag.forAnnouncement(
            id: announcement.id, revision: announcement.revision, version: representation.version,
            showsReaders: showsReaders && representation.version == .v2_0, suffix: representation.tagSuffix)
        let headers: HTTPFields = [
            .contentType: representation.contentType,
            .eTag: etag,
            .apiVersion: representation.version.rawValue,
            .vary: VersionMiddleware.vary,
        ]
        return CachedResponse(body: body, etag: etag, headers: headers)
    }

    static func list(_ announcements: [StoredAnnouncement], as representation: Representation, links: PageLinks) throws -> CachedResponse {
        let body: ByteBuffer
        switch representation.version {
        case .v1_0:
            body = try representation.encode(announcements.map(AnnouncementV1.ListItem.init))
        case .v2_0:
            body = try representation.encode(announcements.map(AnnouncementV2.ListItem.init))
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
