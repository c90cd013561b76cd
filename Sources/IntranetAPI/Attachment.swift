import Foundation
import Spearal

/// A file attached to an announcement, as version 3.0 describes it: on the announcement's
/// detail (`attachments`, in order), from `GET /announcements/{id}/attachments`, and in the
/// answer to an upload.
///
/// Images (JPEG, PNG, WebP, GIF, recognised by their bytes) are served cleaned: decoded and
/// encoded again without metadata (no GPS position, no camera serial), upright, in sRGB; they
/// have a size in pixels, alternative text and smaller variants. Other files are served as
/// uploaded, always as downloads.
public struct AttachmentDescription: Codable, Sendable, Equatable, Hashable {
    /// The server-assigned id (unique across announcements).
    public var id: Int
    /// The file name shown and offered when downloading.
    public var name: String
    /// The media type read from the file's bytes (never the one declared when uploading).
    public var mediaType: String
    /// The size in bytes of what ``url`` serves (for an image, the cleaned copy).
    public var size: Int
    /// Lowercase hex SHA-256 of the bytes uploaded (for an image, before cleaning).
    public var sha256: String
    /// Where its bytes are read: a path of the server.
    public var url: String
    /// An image's width in pixels (upright); `nil` for other files.
    public var width: Int?
    /// An image's height in pixels (one frame of an animation); `nil` for other files.
    public var height: Int?
    /// An image's alternative text, for readers who cannot see it; `nil` when none is set, and
    /// for other files.
    public var alt: String?
    /// An image's smaller copies, smallest first (only those narrower than the image); `nil`
    /// for other files.
    public var variants: [ImageVariant]?

    /// Creates a description.
    public init(
        id: Int, name: String, mediaType: String, size: Int, sha256: String, url: String, width: Int? = nil, height: Int? = nil,
        alt: String? = nil, variants: [ImageVariant]? = nil
    ) {
        self.id = id
        self.name = name
        self.mediaType = mediaType
        self.size = size
        self.sha256 = sha256
        self.url = url
        self.width = width
        self.height = height
        self.alt = alt
        self.variants = variants
    }

    /// Whether it is an image (it has a size in pixels).
    public var isImage: Bool { width != nil }

    private enum CodingKeys: String, CodingKey { case id, name, mediaType, size, sha256, url, width, height, alt, variants }

    /// Reads a description; the image properties may be absent or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        mediaType = try container.decode(String.self, forKey: .mediaType)
        size = try container.decode(Int.self, forKey: .size)
        sha256 = try container.decode(String.self, forKey: .sha256)
        url = try container.decode(String.self, forKey: .url)
        width = try container.decodeIfPresent(Int.self, forKey: .width)
        height = try container.decodeIfPresent(Int.self, forKey: .height)
        alt = try container.decodeIfPresent(String.self, forKey: .alt)
        variants = try container.decodeIfPresent([ImageVariant].self, forKey: .variants)
    }

    /// Writes every key, the image properties as `null` for other files.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(size, forKey: .size)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(url, forKey: .url)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(alt, forKey: .alt)
        try container.encode(variants, forKey: .variants)
    }
}

/// A smaller copy of an attached image.
public struct ImageVariant: Codable, Sendable, Equatable, Hashable {
    /// Its width in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int
    /// Where its bytes are read: a path of the server.
    public var url: String

    /// Creates a variant.
    public init(width: Int, height: Int, url: String) {
        self.width = width
        self.height = height
        self.url = url
    }
}

/// The change an editor makes to an attachment (`PATCH`, a merge patch): each property absent
/// is left as it is; `alt` may be `null` to remove the alternative text.
public struct AttachmentPatch: Codable, Sendable, Equatable {
    /// The new file name.
    public var name: String?
    /// The new alternative text: `.some(nil)` removes it.
    public var alt: String??
    /// The new place in the announcement's list, from 0 (the others move up or down).
    public var position: Int?

    /// Creates a patch.
    public init(name: String? = nil, alt: String?? = nil, position: Int? = nil) {
        self.name = name
        self.alt = alt
        self.position = position
    }

    private enum CodingKeys: String, CodingKey { case name, alt, position }

    /// Reads a patch; `"alt": null` removes the alternative text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        alt = container.contains(.alt) ? .some(try container.decodeIfPresent(String.self, forKey: .alt)) : nil
        position = try container.decodeIfPresent(Int.self, forKey: .position)
    }

    /// Writes only the properties set (`alt` as `null` to remove it).
    public func encode(to encoder: any Encoder) throws {
        // Only what is set: a key left out is a property left as it is (Spearal would write an
        // absent optional as null).
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let name { try container.encode(name, forKey: .name) }
        if let alt { try container.encode(alt, forKey: .alt) }
        if let position { try container.encode(position, forKey: .position) }
    }
}

extension AttachmentDescription: SpearalClassNamed {
    /// `intranet.Attachment`.
    public static var spearalClassName: String { WireClass.attachment.rawValue }
}

extension ImageVariant: SpearalClassNamed {
    /// `intranet.ImageVariant`: only ever nested in an attachment, so filters do not name it.
    public static var spearalClassName: String { "intranet.ImageVariant" }
}

extension AttachmentPatch: SpearalClassNamed {
    /// `intranet.Attachment`: a patch is the attachment as its editor sends it.
    public static var spearalClassName: String { WireClass.attachment.rawValue }
}
