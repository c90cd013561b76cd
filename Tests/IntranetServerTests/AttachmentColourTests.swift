import Foundation
import Testing
@testable import IntranetServer

/// Uploaded images are served in sRGB whatever colour space they came in, whether they are
/// processed in memory or (over ``ImageProcessor/inMemoryBytes`` of pixels) streamed.
@Suite("Attachments: colours")
struct AttachmentColourTests {
    /// The sRGB green the left half of every colour fixture was made from (the right half is
    /// magenta), and the numbers its Display P3 copy stores, which a browser would show wrong
    /// if the profile were dropped without converting.
    static let green = [40.0, 170, 60]
    static let greenAsP3 = [84.0, 167, 75]

    @Test("a Display P3 photo and a CMYK JPEG without a profile are served as RGB with the colours they mean, variants too", arguments: ["p3.jpg", "cmyk.jpg"])
    func convertedToSRGB(fixture: String) async throws {
        // The generic CMYK profile cannot hold this green exactly: its round trip moves it more.
        let tolerance = fixture == "cmyk.jpg" ? 25.0 : 8
        try await withTestServer { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Colours"}"#)
            let description = try await client.attach(try ImageFixture.data(fixture), name: fixture, to: id)
            #expect(description["width"] as? Int == 600 && description["height"] as? Int == 400)
            let variants = try #require(description["variants"] as? [[String: Any]])
            #expect(variants.map { $0["width"] as? Int } == [320])
            let urls = [description["url"] as? String] + variants.map { $0["url"] as? String }
            for url in urls.compactMap({ $0 }) {
                let served = Data(buffer: try await client.read(url).body)
                let (bands, means) = try PixelProbe.means(of: served, x: 0.1, y: 0.25, width: 0.3, height: 0.5)
                #expect(bands == 3, "\(url): RGB")
                for (band, value) in means.enumerated() {
                    #expect(abs(value - Self.green[band]) < tolerance, "\(url): band \(band) is \(value), meant \(Self.green[band])")
                }
                if fixture == "p3.jpg" {
                    #expect(abs(means[0] - Self.greenAsP3[0]) > 30, "\(url): converted, not the P3 numbers shown as sRGB")
                }
            }
        }
    }

    @Test(
        "an image too large to process in memory is streamed once per size: same sizes, same colours, upright",
        arguments: ["p3.jpg", "cmyk.jpg", "gps.jpg", "upright.jpg", "diagram.png"]
    )
    func streamedLikeInMemory(fixture: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("colours-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(fixture).path
        let data = try ImageFixture.data(fixture)
        try data.write(to: URL(fileURLWithPath: path))
        let format = try #require(ImageFormat(sniffing: data))
        let inMemory = try await ImageProcessor().process(fileAt: path, format: format)
        let streamed = try await ImageProcessor(inMemoryBytes: 0).process(fileAt: path, format: format)
        // An untagged CMYK image takes another route through libvips when streamed (its
        // thumbnail operation converts it by way of XYZ rather than with the sRGB profile): a
        // little further from the colour meant, still well within the round trip's tolerance.
        let tolerance = fixture == "cmyk.jpg" ? 20.0 : 3
        let sizes = { (image: ProcessedImage) in ([image.full] + image.variants).map { [$0.width, $0.height] } }
        #expect(sizes(streamed) == sizes(inMemory))
        #expect(!streamed.variants.isEmpty)
        for (one, other) in zip([streamed.full] + streamed.variants, [inMemory.full] + inMemory.variants) {
            let a = try PixelProbe.means(of: Data(buffer: one.bytes), x: 0.1, y: 0.25, width: 0.3, height: 0.5)
            let b = try PixelProbe.means(of: Data(buffer: other.bytes), x: 0.1, y: 0.25, width: 0.3, height: 0.5)
            #expect(a.bands == b.bands)
            for band in 0..<min(a.means.count, b.means.count) {
                #expect(abs(a.means[band] - b.means[band]) < tolerance, "\(one.width) px wide: band \(band) \(a.means) streamed, \(b.means) in memory")
            }
        }
    }

    @Test("an untagged photo keeps its numbers: nothing converts what is sRGB already")
    func untaggedUnchanged() async throws {
        let photo = try ImageFixture.data("gps.jpg")
        let original = try PixelProbe.means(of: photo, x: 0, y: 0, width: 1, height: 1)
        try await withTestServer { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Untagged"}"#)
            let description = try await client.attach(photo, name: "site.jpg", to: id)
            let served = Data(buffer: try await client.read(try #require(description["url"] as? String)).body)
            let means = try PixelProbe.means(of: served, x: 0, y: 0, width: 1, height: 1)
            #expect(means.bands == 3)
            for band in 0..<3 { #expect(abs(means.means[band] - original.means[band]) < 2, "band \(band): \(means.means) against \(original.means)") }
        }
    }
}
