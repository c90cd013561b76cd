import Foundation

/// A URL of a file in a WordPress site's uploads directory (`…/wp-content/uploads/2024/05/x.jpg`)
/// on a host the export names: what the media import reads, keyed by its path below that
/// directory.
///
/// Only the site's own uploads are media: an image hot-linked from elsewhere stays a link to
/// elsewhere, and nothing is ever read from a host the export does not name.
struct UploadReference: Hashable, Sendable {
    /// The URL up to and including `/wp-content/uploads/` (scheme, host, port, the blog's
    /// sub-directory), where the file is downloaded from.
    var base: String
    /// The path below the uploads directory, percent-decoded (`2024/05/canteen-300x200.jpg`):
    /// every component a plain name, never empty, `.` or `..`.
    var path: String

    static let uploadsMarker = "/wp-content/uploads/"

    /// Reads `url` as written in an export (absolute, scheme-relative `//host/…` or
    /// root-relative `/wp-content/…`); `nil` for anything that is not a file in the uploads of
    /// one of `hosts`.
    ///
    /// - Parameters:
    ///   - hosts: the export's hosts, lower case, without port.
    ///   - site: `scheme://host[:port]` a root-relative URL is on.
    init?(_ url: String, hosts: Set<String>, site: String) {
        var text = Substring(url.trimmingCharacters(in: .whitespacesAndNewlines))
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<end] }
        let origin: String
        let rest: Substring
        if text.hasPrefix("/") && !text.hasPrefix("//") {
            origin = site
            rest = text
        } else {
            let lowered = text.lowercased()
            let afterScheme: Substring
            let scheme: String
            if lowered.hasPrefix("https://") {
                (scheme, afterScheme) = ("https:", text.dropFirst("https:".count))
            } else if lowered.hasPrefix("http://") {
                (scheme, afterScheme) = ("http:", text.dropFirst("http:".count))
            } else if text.hasPrefix("//") {
                (scheme, afterScheme) = (site.lowercased().hasPrefix("http:") ? "http:" : "https:", text)
            } else {
                return nil
            }
            let authorityAndPath = afterScheme.dropFirst(2)
            let authority = authorityAndPath.prefix { $0 != "/" }
            // A user name in the URL could make `host@elsewhere` look like `host`.
            guard !authority.isEmpty, !authority.contains("@"), !authority.contains("\\") else { return nil }
            guard hosts.contains(Self.host(of: authority)) else { return nil }
            origin = scheme + "//" + authority
            rest = authorityAndPath.dropFirst(authority.count)
        }
        guard let marker = rest.range(of: Self.uploadsMarker) else { return nil }
        let encoded = rest[marker.upperBound...]
        guard let decoded = String(encoded).removingPercentEncoding else { return nil }
        let components = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy(Self.isPlainName) else { return nil }
        base = origin + rest[..<marker.upperBound]
        path = decoded
    }

    /// The host of `authority` (`Host:8080`, `[::1]:80`) in lower case, without its port.
    static func host(of authority: some StringProtocol) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
            return String(lowered[...close])
        }
        return String(lowered.prefix { $0 != ":" })
    }

    /// The hosts an export names (its `link`, `wp:base_site_url`, `wp:base_blog_url`).
    static func hosts(of channel: WXRChannel) -> Set<String> {
        Set([channel.link, channel.baseSiteURL, channel.baseBlogURL].compactMap { origin(of: $0).map { host(of: $0.authority) } })
    }

    /// The scheme (`http:` or `https:`) and authority of an `http(s)` URL, or `nil`.
    static func origin(of url: String) -> (scheme: String, authority: String)? {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let lowered = trimmed.lowercased()
        guard let scheme = lowered.hasPrefix("https://") ? "https:" : lowered.hasPrefix("http://") ? "http:" : nil else { return nil }
        let authority = trimmed.dropFirst(scheme.count + 2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return (scheme, String(authority))
    }

    private static func isPlainName(_ component: Substring) -> Bool {
        !component.isEmpty && component != "." && component != ".."
            && !component.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }
    }

    /// The URL to download the file from (each path component percent-encoded again).
    var url: String {
        base + path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: Self.componentCharacters) ?? String($0) }
            .joined(separator: "/")
    }

    private static let componentCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?#"))

    /// The file's name (its last path component).
    var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// For one of the sizes WordPress makes of an image (`canteen-300x200.jpg`), the original's
    /// path (`…/canteen.jpg`) and the width asked for; `nil` for any other name.
    var resized: (original: String, width: Int)? {
        Self.resized(path)
    }

    static func resized(_ path: String) -> (original: String, width: Int)? {
        let (directory, name) = split(path)
        guard let dot = name.lastIndex(of: "."), let dash = name[..<dot].lastIndex(of: "-") else { return nil }
        let size = name[name.index(after: dash)..<dot].split(separator: "x", omittingEmptySubsequences: false)
        guard dash > name.startIndex, size.count == 2,
              size.allSatisfy({ (1...5).contains($0.count) && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
              let width = Int(size[0]), width > 0
        else { return nil }
        return (directory + name[..<dash] + name[dot...], width)
    }

    /// For an image WordPress scaled down or turned on upload (`photo-scaled.jpg`,
    /// `photo-rotated.jpg`, the attachment's own URL since WordPress 5.3), the name its sizes
    /// are made from (`photo.jpg`); `nil` for any other name.
    static func unscaled(_ path: String) -> String? {
        let (directory, name) = split(path)
        guard let dot = name.lastIndex(of: ".") else { return nil }
        for suffix in ["-scaled", "-rotated"] where name[..<dot].hasSuffix(suffix) && name[..<dot].count > suffix.count {
            return directory + name[..<dot].dropLast(suffix.count) + name[dot...]
        }
        return nil
    }

    private static func split(_ path: String) -> (directory: String, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path[...]) }
        return (String(path[...slash]), path[path.index(after: slash)...])
    }
}
