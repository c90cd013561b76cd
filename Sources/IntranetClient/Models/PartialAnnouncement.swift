import Foundation
import IntranetAPI
import RESTRepository
import Spearal

/// An announcement read with only some of its properties (`fields:`): the id, and each
/// property the read asked for and the server's version has.
///
/// A different type from ``Announcement`` on purpose, so a screen that asked for titles can
/// never show a missing body as an empty one: every property but the id is optional, and
/// ``body`` says whether it was sent at all.
public struct PartialAnnouncement: Decodable, Sendable, Equatable, Identifiable {
    /// The server-assigned id (always sent).
    public var id: Int
    /// The headline, when asked for.
    public var title: String?
    /// The body: not included, empty, or HTML.
    public var body: AnnouncementSummary.Body
    /// When it was created, when asked for (version 2.0 details).
    public var createdAt: Date?
    /// When it last changed, when asked for (version 2.0 details).
    public var updatedAt: Date?
    /// Who may read it, when asked for and shown (editors and admins, 2.0 details).
    public var readers: AnnouncementReaders?

    /// Creates a partial announcement.
    public init(
        id: Int, title: String? = nil, body: AnnouncementSummary.Body = .notIncluded, createdAt: Date? = nil,
        updatedAt: Date? = nil, readers: AnnouncementReaders? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.readers = readers
    }

    private enum CodingKeys: String, CodingKey { case id, title, body, createdAt, updatedAt, readers }

    /// Decodes whatever subset the server sent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        body = try AnnouncementSummary.Body(from: container, forKey: .body)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        updatedAt = try container.decodeIfPresent(Date.self, forKey: .updatedAt)
        readers = container.contains(.readers) ? try container.decode(AnnouncementReaders.self, forKey: .readers) : nil
    }
}

extension Announcement: PropertySelecting {
    /// The properties of an announcement a read can ask for.
    public enum Property: String, Sendable, CaseIterable {
        /// The headline.
        case title
        /// The HTML body.
        case body
        /// When it was created (2.0).
        case createdAt
        /// When it last changed (2.0).
        case updatedAt
        /// Who may read it (2.0, editors and admins).
        case readers
    }

    /// A read with fields gives a ``PartialAnnouncement``.
    public typealias Partial = PartialAnnouncement

    /// `intranet.Announcement`.
    public static var remoteClassName: String { WireClass.announcement.rawValue }
}

extension AnnouncementSummary: PropertySelecting {
    /// The properties of a list item a read can ask for (`body` exists in version 1.0 lists only).
    public enum Property: String, Sendable, CaseIterable {
        /// The headline.
        case title
        /// The HTML body (1.0).
        case body
    }

    /// A list read with fields gives ``PartialAnnouncement``s.
    public typealias Partial = PartialAnnouncement

    /// `intranet.AnnouncementSummary`.
    public static var remoteClassName: String { WireClass.announcementSummary.rawValue }
}

extension AnnouncementPatch: SpearalClassNamed {
    /// `intranet.Announcement`: in Spearal the patch is a partial announcement.
    public static var spearalClassName: String { WireClass.announcement.rawValue }
}

extension UserPatch: SpearalClassNamed {
    /// `intranet.User`: in Spearal the patch is a partial user.
    public static var spearalClassName: String { WireClass.user.rawValue }
}
