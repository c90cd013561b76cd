import Foundation

/// Which of an export's media belong to which imported post: gathered while the export is
/// read (attachment items may come before or after their posts), settled once all of it has
/// been.
///
/// A file belongs to the post its attachment item names as parent (`wp:post_parent`) and to
/// every imported post whose body shows or links it; each of those announcements gets an
/// attachment of its own (the bytes are stored once), so a reader who may read the post may
/// read its files. A reference to one of WordPress's resized copies (`canteen-300x200.jpg`,
/// also in `srcset`) means the original (`canteen.jpg`, or the attachment `canteen-scaled.jpg`
/// WordPress made from a large upload).
struct MediaPlan {
    /// The hosts the export names, the only ones media are read from.
    let hosts: Set<String>
    /// Where a root-relative URL (`/wp-content/uploads/…`) is: the export's site.
    let site: String
    /// Whether every imported post's references and the attachment items are gathered (media
    /// are brought), or only those of posts changed by this import (to point their new bodies
    /// to media imported before).
    let gathersAll: Bool

    /// An attachment item of the export.
    struct Attachment {
        var reference: UploadReference
        /// The post it was uploaded to, if any.
        var parent: Int?
    }

    /// An imported post and the upload URLs its body holds, in order.
    struct Post {
        var postID: Int
        /// `nil` in a dry run for a post not imported before.
        var announcementID: Int?
        /// Created or updated by this import (its body is new).
        var isChanged: Bool
        var references: [UploadReference]
    }

    /// One file as an announcement needs it.
    struct Medium: Equatable {
        /// The path below the uploads directory it is remembered by.
        var key: String
        /// Where it is read from, in order of preference: the original first, then (when no
        /// attachment item names the original) the resized copy the body shows.
        var sources: [UploadReference]
    }

    /// What one imported post's announcement needs.
    struct Assignment {
        var post: Post
        var media: [Medium]
    }

    private var attachments: [String: Attachment] = [:]
    private var attachmentOrder: [String] = []
    /// `photo.jpg` → the attachment `photo-scaled.jpg`.
    private var unscaled: [String: String] = [:]
    private(set) var posts: [Post] = []

    init(channel: WXRChannel, gathersAll: Bool) {
        hosts = UploadReference.hosts(of: channel)
        let url = [channel.baseSiteURL, channel.baseBlogURL, channel.link].first { UploadReference.origin(of: $0) != nil } ?? ""
        site = UploadReference.origin(of: url).map { $0.scheme + "//" + $0.authority } ?? ""
        self.gathersAll = gathersAll
    }

    /// Notes an attachment item (also when no media are brought: it tells what a resized
    /// copy is a copy of).
    mutating func noteAttachment(_ item: WXRItem) {
        guard let reference = UploadReference(item.attachmentURL, hosts: hosts, site: site),
              attachments[reference.path] == nil
        else { return }
        let parent = Int(item.postParent.trimmingCharacters(in: .whitespaces)).flatMap { $0 > 0 ? $0 : nil }
        attachments[reference.path] = Attachment(reference: reference, parent: parent)
        attachmentOrder.append(reference.path)
        if let original = UploadReference.unscaled(reference.path) { unscaled[original] = reference.path }
    }

    /// Notes an imported post and the uploads its body shows or links.
    mutating func notePost(_ item: WXRItem, postID: Int, announcementID: Int?, isChanged: Bool) {
        guard gathersAll || isChanged else { return }
        var references: [UploadReference] = []
        if item.content.contains(UploadReference.uploadsMarker) {
            for url in MediaLinks.urls(in: WordPressContent.readerHTML(item.content)) {
                guard let reference = UploadReference(url, hosts: hosts, site: site), !references.contains(reference) else { continue }
                references.append(reference)
            }
        }
        guard gathersAll || !references.isEmpty else { return }
        posts.append(Post(postID: postID, announcementID: announcementID, isChanged: isChanged, references: references))
    }

    /// The file a reference means, and the width it asks for (a resized copy's).
    func resolve(_ reference: UploadReference) -> (medium: Medium, width: Int?) {
        if let attachment = attachment(at: reference.path) {
            return (Medium(key: attachment.reference.path, sources: [attachment.reference]), nil)
        }
        guard let (original, width) = reference.resized else {
            return (Medium(key: reference.path, sources: [reference]), nil)
        }
        if let attachment = attachment(at: original) {
            return (Medium(key: attachment.reference.path, sources: [attachment.reference]), width)
        }
        var originalReference = reference
        originalReference.path = original
        return (Medium(key: original, sources: [originalReference, reference]), width)
    }

    private func attachment(at path: String) -> Attachment? {
        attachments[path] ?? unscaled[path].flatMap { attachments[$0] }
    }

    /// What each imported post needs, in export order: the files its body shows, in order,
    /// then its other attachment items; and how many attachment items belong to no imported
    /// post.
    func assignments() -> (assignments: [Assignment], unattached: Int) {
        var result = posts.map { post in
            var media: [Medium] = []
            for reference in post.references {
                let medium = resolve(reference).medium
                if !media.contains(where: { $0.key == medium.key }) { media.append(medium) }
            }
            return Assignment(post: post, media: media)
        }
        let indexByPost = Dictionary(result.indices.map { (result[$0].post.postID, $0) }, uniquingKeysWith: { first, _ in first })
        let shown = Set(result.flatMap { $0.media.map(\.key) })
        var unattached = 0
        for path in attachmentOrder {
            guard let attachment = attachments[path] else { continue }
            guard let parent = attachment.parent, let index = indexByPost[parent] else {
                if !shown.contains(path) { unattached += 1 }
                continue
            }
            if !result[index].media.contains(where: { $0.key == path }) {
                result[index].media.append(Medium(key: path, sources: [attachment.reference]))
            }
        }
        return (result, unattached)
    }
}
