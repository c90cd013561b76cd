import CVips
import Foundation
import Testing
@testable import IntranetServer

/// How images are processed, below the API: what a photo's full-size copy keeps, and libvips
/// used from several threads at once.
@Suite("Attachments: image processing")
struct ImageProcessingTests {
    @Test("a photo needing no turning or colour conversion keeps its exact pixels and nothing else: no EXIF, XMP, comment or bytes after its end")
    func uprightPhotoRewrittenWithoutLoss() async throws {
        let photo = try ImageFixture.data("upright.jpg")
        let original = try ExifTool.tags(of: photo)
        #expect(original.keys.contains { $0.hasPrefix("GPS:") } && original.keys.contains { $0.hasPrefix("XMP") }, "the fixture has a GPS position and XMP")
        #expect(photo.range(of: Data(Self.trailer.utf8)) != nil, "the fixture has bytes after its end")
        try await withTestServer { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Quay"}"#)
            let description = try await client.attach(photo, name: "quay.jpg", to: id)
            #expect(description["width"] as? Int == 1000 && description["height"] as? Int == 600)
            #expect(((description["variants"] as? [[String: Any]]) ?? []).map { $0["width"] as? Int } == [320, 800])
            let served = Data(buffer: try await client.read(try #require(description["url"] as? String)).body)
            let tags = try ExifTool.tags(of: served)
            let leaked = tags.keys.filter { key in ["GPS:", "ExifIFD:", "IFD0:", "XMP", "IPTC", "ICC", "File:Comment"].contains { key.hasPrefix($0) } }
            #expect(leaked.isEmpty, "the served photo still carries \(leaked.sorted())")
            for secret in ["CAM-SERIAL-7731", "Quay inspection notes", Self.trailer] {
                #expect(served.range(of: Data(secret.utf8)) == nil, "the served photo still holds \(secret)")
            }
            // The same numbers everywhere (an encoding again, even at the highest quality,
            // would move them): the pixels are the upload's own.
            for (x, y) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)] {
                let region = { (data: Data) in try PixelProbe.means(of: data, x: x, y: y, width: 0.5, height: 0.5) }
                #expect(try region(served).means == region(photo).means, "the quarter at \(x), \(y)")
            }
        }
    }

    @Test("a JPEG whose copied data could show anything else is decoded and encoded instead; one libjpeg cannot decode is 422")
    func jpegsNotRewritten() async throws {
        try #require(ImageProcessor.started)
        // Read without complaint, but a copy would break (a value past the standard tables)
        // or lose the smoothing decoders give what was never sent.
        for fixture in ["arithmetic-wide.jpg", "progressive-dc.jpg"] {
            let path = ImageFixture.directory.appendingPathComponent(fixture).path
            var bytes: UnsafeMutableRawPointer?
            var length = 0
            #expect(intranet_jpeg_rewrite(path, 1 << 26, &bytes, &length) == 1, "\(fixture) is not rewritten")
            intranet_vips_free(bytes)
        }
        try await withTestServer { _, client in
            let id = try await client.createAnnouncement(#"{"title":"Odd JPEGs"}"#)
            let wide = try ImageFixture.data("arithmetic-wide.jpg")
            let description = try await client.attach(wide, name: "wide.jpg", to: id)
            let served = Data(buffer: try await client.read(try #require(description["url"] as? String)).body)
            for (x, y) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)] {
                let original = try PixelProbe.means(of: wide, x: x, y: y, width: 0.5, height: 0.5).means
                let copy = try PixelProbe.means(of: served, x: x, y: y, width: 0.5, height: 0.5).means
                for band in 0..<3 { #expect(abs(copy[band] - original[band]) < 3, "the quarter at \(x), \(y): \(copy) against \(original)") }
            }
            let fractional = try await client.upload(try ImageFixture.data("fractional.jpg"), name: "odd.jpg", to: id)
            #expect(fractional.status == .unprocessableContent, "\(fractional.status): \(fractional.text)")
        }
    }

    /// What `upright.jpg` carries after its end (a polyglot's usual hiding place).
    static let trailer = "<script>alert('after the end')</script>"

    @Test("images resized on six threads at once: libvips's vector code is built and freed one at a time (liborc 0.4.33 crashed)")
    func resizingOnManyThreads() throws {
        let path = ImageFixture.directory.appendingPathComponent("upright.jpg").path
        var loaded: UnsafeMutableRawPointer?
        var small: UnsafeMutableRawPointer?
        var (width, height): (Int32, Int32) = (0, 0)
        try #require(ImageProcessor.started)
        try #require(intranet_vips_load(path, 1 << 26, &loaded, &width, &height) == 0)
        defer { intranet_vips_release(loaded) }
        // Small, so that building and freeing the code is most of each resize's time.
        try #require(intranet_vips_resize(loaded, 360, &small, &width, &height) == 0)
        let image = SharedImage(pointer: small)
        defer { intranet_vips_release(image.pointer) }
        let failures = Failures()
        let threads = (0..<6).map { thread in
            Thread {
                for round in 0..<600 {
                    var resized: UnsafeMutableRawPointer?
                    var (outWidth, outHeight): (Int32, Int32) = (0, 0)
                    // A width of its own each time: every resize builds its own vector code.
                    if intranet_vips_resize(image.pointer, Int32(100 + (thread * 600 + round) % 60), &resized, &outWidth, &outHeight) != 0 {
                        failures.add()
                    }
                    intranet_vips_release(resized)
                }
                failures.done.signal()
            }
        }
        threads.forEach { $0.start() }
        threads.forEach { _ in failures.done.wait() }
        #expect(failures.count == 0)
    }
}

/// A decoded image read by several threads (libvips's images are safe to read side by side).
private struct SharedImage: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
}

/// Counts the resizes that failed, and the threads that finished.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var failed = 0
    let done = DispatchSemaphore(value: 0)

    func add() { lock.withLock { failed += 1 } }
    var count: Int { lock.withLock { failed } }
}
