import Crypto
import Foundation
import IntranetAPI

/// Strong entity tags and the `If-Match` / `If-None-Match` rules (RFC 9110 §13).
///
/// An announcement's tag is `"<id>.<revision>.v<major>"` (with a trailing `e` for the editors'
/// 2.0 and 3.0 detail, which adds `readers`, a `u` on 3.0 once a pin ended with no write, as
/// `pinned` then reads `false`, then the representation's suffix: `-s` for Spearal,
/// `-f<class>x<mask>` for a property selection): the revision changes on every write, and the last part
/// keeps the representations apart. `If-Match` compares only id and revision, so a tag read
/// under any version, format or selection guards a write.
enum EntityTag {
    static func forAnnouncement(
        id: Int, revision: Int, version: APIVersion, showsReaders: Bool = false, pinEnded: Bool = false, suffix: String = ""
    ) -> String {
        let major = version.rawValue.prefix(while: { $0 != "." })
        return "\"\(id).\(revision).v\(major)\(showsReaders ? "e" : "")\(pinEnded ? "u" : "")\(suffix)\""
    }

    /// The tag of a resource whose representation also shows other rows (a person shows their
    /// reports): `"<id>.<revision>.p<hash of the bytes><suffix>"`, so `If-Match` still reads
    /// id and revision while any change to what is shown changes the tag.
    static func forRevision(id: Int, revision: Int, content: some Sequence<UInt8>, suffix: String = "") -> String {
        "\"\(id).\(revision).p\(contentHash(content))\(suffix)\""
    }

    private static func contentHash(_ body: some Sequence<UInt8>) -> String {
        var hash = SHA256()
        hash.update(data: Array(body))
        return hash.finalize().prefix(12).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// A tag derived from the bytes of a representation (for lists), followed by the
    /// representation's suffix, so equal bytes of two representations still get two tags.
    static func forContent(_ body: some Sequence<UInt8>, suffix: String = "") -> String {
        "\"l" + contentHash(body) + suffix + "\""
    }

    /// What an `If-Match` header requires of resource `id`, whose tags' third part starts with
    /// `kind` (`v` for announcements, `p` for people), so one resource's tag never guards another's
    /// write.
    static func precondition(_ header: String?, id: Int, kind: Character = "v") -> WritePrecondition {
        guard let header else { return .none }
        let tags = parseList(header)
        if tags.contains("*") { return .exists }
        let revisions = tags.compactMap { tag -> Int? in
            let parts = tag.dropFirst().dropLast().split(separator: ".")
            guard tag.hasPrefix("\""), parts.count == 3, Int(parts[0]) == id, parts[2].first == kind else { return nil }
            return Int(parts[1])
        }
        return .revision(in: Set(revisions))
    }

    /// Whether an `If-None-Match` header matches `etag` (weak comparison, as RFC 9110 asks).
    static func noneMatchHits(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        return parseList(header).contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
    }

    /// Splits a comma-separated list of entity tags.
    private static func parseList(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmed() }
    }
}
