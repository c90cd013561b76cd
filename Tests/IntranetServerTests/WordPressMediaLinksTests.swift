import IntranetAPI
import Testing
@testable import IntranetServer

/// Which URLs of an export are the site's uploads, what a resized copy is a copy of, and how a
/// stored body's URLs are rewritten.
@Suite("WordPress import: media links")
struct WordPressMediaLinksTests {
    static let hosts: Set<String> = ["old.example"]
    static let site = "https://old.example"

    static func path(_ url: String) -> String? {
        UploadReference(url, hosts: hosts, site: site)?.path
    }

    @Test("uploads on the export's hosts are media, by their path below the uploads directory; others are not")
    func uploadsOnTheSite() {
        #expect(Self.path("https://old.example/wp-content/uploads/2024/05/canteen.jpg") == "2024/05/canteen.jpg")
        #expect(Self.path("http://OLD.example:8080/blog/wp-content/uploads/2024/05/a%20b.jpg?ver=2#top") == "2024/05/a b.jpg")
        #expect(Self.path("//old.example/wp-content/uploads/x.pdf") == "x.pdf")
        #expect(Self.path("/wp-content/uploads/2023/01/spinner.gif") == "2023/01/spinner.gif")
        #expect(Self.path("https://elsewhere.example/wp-content/uploads/x.jpg") == nil, "another host")
        #expect(Self.path("https://old.example@elsewhere.example/wp-content/uploads/x.jpg") == nil, "a user name hiding another host")
        #expect(Self.path("https://old.example/wp-content/themes/logo.png") == nil, "not an upload")
        #expect(Self.path("javascript:alert(1)//wp-content/uploads/x") == nil)
        #expect(Self.path("uploads/relative.jpg") == nil)
    }

    @Test("a path that would leave the uploads directory is not media", arguments: [
        "https://old.example/wp-content/uploads/../../etc/passwd",
        "https://old.example/wp-content/uploads/2024/%2e%2e/%2E%2E/secret",
        "https://old.example/wp-content/uploads/2024//x.jpg",
        "https://old.example/wp-content/uploads/",
        "https://old.example/wp-content/uploads/a%00b.jpg",
        "https://old.example/wp-content/uploads/a%5C..%5Cb.jpg",
    ])
    func escapingPaths(url: String) {
        #expect(Self.path(url) == nil)
    }

    @Test("WordPress's resized copies name their original and width; scaled uploads their unscaled name")
    func resizedCopies() {
        #expect(UploadReference.resized("2024/05/canteen-300x200.jpg")! == ("2024/05/canteen.jpg", 300))
        #expect(UploadReference.resized("a-b-1024x683.webp")! == ("a-b.webp", 1024))
        #expect(UploadReference.resized("2024/05/canteen.jpg") == nil)
        #expect(UploadReference.resized("-300x200.jpg") == nil)
        #expect(UploadReference.resized("canteen-300x.jpg") == nil)
        #expect(UploadReference.resized("canteen-+30x20.jpg") == nil)
        #expect(UploadReference.unscaled("2024/05/photo-scaled.jpg") == "2024/05/photo.jpg")
        #expect(UploadReference.unscaled("photo-rotated.png") == "photo.png")
        #expect(UploadReference.unscaled("photo.jpg") == nil)
    }

    @Test("a resized copy of an attachment means the attachment, also when WordPress scaled it")
    func resolvingToAttachments() throws {
        var channel = WXRChannel()
        channel.link = Self.site
        var plan = MediaPlan(channel: channel, gathersAll: true)
        var item = WXRItem()
        item.attachmentURL = "https://old.example/wp-content/uploads/2024/05/photo-scaled.jpg"
        plan.noteAttachment(item)
        let copy = try #require(UploadReference("https://old.example/wp-content/uploads/2024/05/photo-768x512.jpg", hosts: Self.hosts, site: Self.site))

        let (medium, width) = plan.resolve(copy)

        #expect(medium.key == "2024/05/photo-scaled.jpg")
        #expect(medium.sources.map(\.url) == ["https://old.example/wp-content/uploads/2024/05/photo-scaled.jpg"])
        #expect(width == 768)
        let loose = try #require(UploadReference("https://old.example/wp-content/uploads/icon-64x64.png", hosts: Self.hosts, site: Self.site))
        #expect(plan.resolve(loose).medium.sources.map(\.path) == ["icon.png", "icon-64x64.png"], "without an attachment item: the original, else the copy itself")
    }

    @Test("links, sources and srcset candidates are found in document order")
    func findingURLs() {
        let html = #"<a href="a.pdf"><img src="b.jpg" srcset="c.jpg 300w, d.jpg 2x"></a><video poster="e.jpg"><source src="f.mp4"></video>"#

        #expect(MediaLinks.urls(in: html) == ["a.pdf", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.mp4"])
    }

    @Test("rewriting replaces URLs in tags only, escaped, and keeps everything else byte for byte")
    func rewriting() {
        let body = #"<p title="src=&quot;a.jpg&quot;">src="a.jpg" &lt;img src="a.jpg"&gt;</p><img alt="a.jpg" src="a.jpg" srcset="a.jpg 1x, b.jpg 2x"><a href="b.jpg?x=1&amp;y=2">b</a>"#

        let rewritten = MediaLinks.rewriting(body) { url in
            switch url {
            case "a.jpg": "/files/1"
            case "b.jpg?x=1&y=2": "/files/2?&"
            default: nil
            }
        }

        #expect(rewritten == #"<p title="src=&quot;a.jpg&quot;">src="a.jpg" &lt;img src="a.jpg"&gt;</p><img alt="a.jpg" src="/files/1" srcset="/files/1 1x, b.jpg 2x"><a href="/files/2?&amp;">b</a>"#)
    }

    @Test("a resized copy points to the variant nearest in width, or to the full image when nearer")
    func nearestVariant() {
        let photo = AttachmentDescription(
            id: 1, name: "p.jpg", mediaType: "image/jpeg", size: 1, sha256: "", url: "/f", width: 1200, height: 800, alt: nil,
            variants: [.init(width: 320, height: 213, url: "/f/320"), .init(width: 800, height: 533, url: "/f/800")])

        #expect(WordPressImporter.url(of: photo, width: 300) == "/f/320")
        #expect(WordPressImporter.url(of: photo, width: 768) == "/f/800")
        #expect(WordPressImporter.url(of: photo, width: 1024) == "/f")
        #expect(WordPressImporter.url(of: photo, width: nil) == "/f")
    }
}
