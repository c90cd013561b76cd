import Foundation
import HTTPTypes
import IntranetAPI
import NIOCore

/// Encodes announcements as the negotiated version's JSON, with their `ETag` and headers.
enum AnnouncementRepresentation {
    /// The detail of the negotiated version; under 2.0, editors and admins also see `readers`.
    static func detail(_ announcement: StoredAnnouncement, version: APIVersion, showsReaders: Bool) throws -> CachedResponse {
        let body: Data
        switch version {
        case .v1_0:
            body = try IntranetJSON.encoder().encode(AnnouncementV1.Detail(announcement))
        case .v2_0 where showsReaders:
            body = try IntranetJSON.encoder().encode(AnnouncementV2.EditorDetail(announcement))
        case .v2_0:
            body = try IntranetJSON.encoder().encode(AnnouncementV2.Detail(announcement))
        }
        let etag = EntityTag.forAnnouncement(
            id: announcement.id, revision: announcement.revision, version: version, showsReaders: showsReaders && version == .v2_0)
        let headers: HTTPFields = [
            .contentType: MediaType.json,
            .eTag: etag,
            .apiVersion: version.rawValue,
            .vary: VersionMiddleware.vary,
        ]
        return CachedResponse(body: ByteBuffer(bytes: body), etag: etag, headers: headers)
    }

    static func list(_ announcements: [StoredAnnouncement], version: APIVersion, links: PageLinks) throws -> CachedResponse {
        let body: Data
        switch version {
        case .v1_0:
            body = try IntranetJSON.encoder().encode(announcements.map(AnnouncementV1.ListItem.init))
        case .v2_0:
            body = try IntranetJSON.encoder().encode(announcements.map(AnnouncementV2.ListItem.init))
        }
        let etag = EntityTag.forContent(body)
        let headers: HTTPFields = [
            .contentType: MediaType.json,
            .eTag: etag,
            .total: String(links.total),
            .page: String(links.page),
            .perPage: String(links.perPage),
            .link: links.link,
            .apiVersion: version.rawValue,
            .vary: VersionMiddleware.vary,
        ]
        return CachedResponse(body: ByteBuffer(bytes: body), etag: etag, headers: headers)
    }
}

extension AnnouncementV1.Detail {
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
