import CVips
import Foundation
import NIOCore
import NIOPosix

/// The image formats accepted as pictures, told apart by their first bytes (never by a declared
/// type or a file name).
enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, gif

    /// The media type its files are served as.
    var mediaType: String { "image/\(rawValue)" }

    /// The format a file starting with `head` is in, or `nil` when it is none of these.
    init?(sniffing head: some Collection<UInt8>) {
        let bytes = Array(head.prefix(12))
        func starts(_ prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && Array(bytes.prefix(prefix.count)) == prefix }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if bytes.count == 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}

extension ImageFormat {
    /// The format's code for libvips's side.
    fileprivate var vipsCode: intranet_vips_format {
        switch self {
        case .jpeg: INTRANET_VIPS_JPEG
        case .png: INTRANET_VIPS_PNG
        case .webp: INTRANET_VIPS_WEBP
        case .gif: INTRANET_VIPS_GIF
        }
    }
}

/// One encoded copy of an uploaded image: the cleaned full-size one or a smaller variant.
struct EncodedImage: Sendable {
    var width: Int
    var height: Int
    var bytes: ByteBuffer
}

/// What an uploaded image became: the cleaned copy served in its place, and its smaller
/// variants, smallest first.
struct ProcessedImage: Sendable {
    var format: ImageFormat
    var full: EncodedImage
    var variants: [EncodedImage]
}

/// Why an image was refused.
enum ImageRefusal: Error, Equatable, Sendable {
    /// It has more pixels (all frames counted) than the limit.
    case tooManyPixels(width: Int, height: Int, frames: Int, limit: Int)
    /// It cannot be decoded: truncated, corrupt, or not really the format its bytes start as.
    case unreadable(String)

    /// What the uploader is told.
    var message: String {
        switch self {
        case .tooManyPixels(let width, let height, let frames, let limit):
            let size = frames > 1 ? "\(width)×\(height) pixels in \(frames) frames" : "\(width)×\(height) pixels"
            return "This image has \(size); at most \(limit) pixels in all are accepted (ATTACHMENT_MAX_PIXELS)."
        case .unreadable(let reason):
            return "This image cannot be read (truncated or corrupt): \(reason)"
        }
    }
}

/// Checks, cleans and resizes uploaded images with libvips (and libjpeg).
///
/// Every image is written anew: what is served never carries the upload's metadata (EXIF with
/// its GPS position and camera serial, XMP, IPTC, comments), is turned upright by its EXIF
/// orientation, and has its colours converted to sRGB (the colour profile is then dropped,
/// since sRGB is what an untagged image means). Most images are decoded and encoded again; a
/// JPEG that needs no turning or converting has its compressed data rewritten without loss
/// (see ``processShownAsStored(_:width:height:limit:)``). The size is read from the header
/// before any pixel is decoded, so a decompression bomb is refused for the price of its
/// header.
struct ImageProcessor: Sendable {
    /// The widths of the variants made, each only when narrower than the image.
    static let variantWidths = [320, 800, 1600]
    /// The default of ``maxPixels``: a 50-megapixel photo.
    static let defaultMaxPixels = 50_000_000

    /// Most pixels an image may have, all frames of an animation counted.
    var maxPixels = Self.defaultMaxPixels

    /// Starts libvips once per process.
    static let started: Bool = intranet_vips_start() == 0

    /// Whether libvips can write GIF (it needs cgif); otherwise GIFs are served as PNG.
    private static let writesGIF: Bool = started && intranet_vips_writes_gif() != 0

    /// Cleans the image in the file at `path` (whose first bytes said `format`) and makes its
    /// variants, on the images' own threads: decoding is blocking work.
    ///
    /// - Throws: ``ImageRefusal``.
    func process(fileAt path: String, format: ImageFormat) async throws -> ProcessedImage {
        try await Self.pool.runIfActive { try processNow(fileAt: path, format: format) }
    }

    /// The threads images are processed on: one more than the cores, since each waits for
    /// libvips's worker between steps (with one per core, 11 % of two cores stayed idle during
    /// a media import), and of their own, so that nothing else queued on NIO's shared pool (the
    /// WAL checkpoint, password hashing) waits behind a photo.
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount + 1)
        pool.start()
        return pool
    }()

    private func processNow(fileAt path: String, format: ImageFormat) throws -> ProcessedImage {
        guard Self.started else { throw ImageRefusal.unreadable("the image library could not start") }
        // GIF and WebP may be animations: every frame is kept, and counted in the pixel limit.
        let allFrames: Int32 = format == .gif || format == .webp ? 1 : 0
        var (width, height, frames, asShown): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard intranet_vips_header(path, allFrames, &width, &height, &frames, &asShown) == 0 else { throw ImageRefusal.unreadable(Self.lastError()) }
        let (w, h, n) = (Int(width), Int(height), Int(max(1, frames)))
        guard w > 0, h > 0, w.multipliedReportingOverflow(by: h).partialValue <= maxPixels / n else {
            throw ImageRefusal.tooManyPixels(width: w, height: h, frames: n, limit: maxPixels)
        }
        let output: ImageFormat = format == .gif && !Self.writesGIF ? .png : format
        // Three bytes a pixel, as a colour JPEG decodes.
        if format == .jpeg, asShown != 0, w * h * 3 <= inMemoryBytes,
            let processed = try Self.processShownAsStored(path, width: w, height: h, limit: inMemoryBytes)
        {
            return processed
        }
        if n == 1, let processed = try Self.processInMemory(path, limit: inMemoryBytes, as: output) { return processed }
        let full = try Self.encode(path, width: w, allFrames: allFrames, as: output)
        let variants = try Self.variantWidths.filter { $0 < full.width }.map { try Self.encode(path, width: $0, allFrames: allFrames, as: output) }
        return ProcessedImage(format: output, full: full, variants: variants)
    }

    /// The default of ``inMemoryBytes``: 64 MiB (a 12-megapixel phone photo takes 36 MiB).
    static let defaultInMemoryBytes = 64 << 20

    /// Most bytes a still image's decoded pixels may take to be processed in memory: decoded
    /// once, each variant shrunk from the next larger one. A larger image, or an animation, is
    /// decoded again for each size, streamed through (shrinking while decoding where the format
    /// allows), so its pixels are never all in memory.
    var inMemoryBytes = Self.defaultInMemoryBytes

    /// The image at `path` processed from one decoding, or `nil` when its pixels take more than
    /// `limit` bytes.
    private static func processInMemory(_ path: String, limit: Int, as format: ImageFormat) throws -> ProcessedImage? {
        var image: UnsafeMutableRawPointer?
        var (width, height): (Int32, Int32) = (0, 0)
        switch intranet_vips_load(path, limit, &image, &width, &height) {
        case 0: break
        case 1: return nil
        default: throw ImageRefusal.unreadable(lastError())
        }
        defer { intranet_vips_release(image) }
        let full = try save(image, width: width, height: height, as: format)
        let variants = try variants(of: image, widths: variantWidths.filter { $0 < Int(width) }, as: format)
        return ProcessedImage(format: format, full: full, variants: variants)
    }

    /// A JPEG whose pixels are shown as stored (no colour profile, not CMYK, no EXIF
    /// orientation), processed without decoding them all: the full-size copy is the file
    /// rewritten without loss and without metadata (its DCT coefficients in a new file: exactly
    /// the uploaded pixels, about the upload's size, for half the cost of encoding them again);
    /// the variants are shrunk from a decoding that libjpeg shrinks already, to the eighths of
    /// the width that keep the largest variant's (a 1200-pixel photo is decoded 900 wide for
    /// its 800-pixel variant; a 4000-pixel one 2000 wide for its 1600). `nil` when libjpeg
    /// finds fault with the file: it is then decoded by libvips, which refuses what is
    /// truncated or corrupt, as every other image is.
    private static func processShownAsStored(_ path: String, width: Int, height: Int, limit: Int) throws -> ProcessedImage? {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard intranet_jpeg_rewrite(path, limit, &bytes, &length) == 0, let bytes else { return nil }
        let full = EncodedImage(width: width, height: height, bytes: buffer(bytes, length))
        let widths = variantWidths.filter { $0 < width }
        // Decoded even with no variant to make (then at an eighth of its size): a file whose
        // coefficients can be read may still not decode (fractional sampling), and is refused.
        var image: UnsafeMutableRawPointer?
        var (decodedWidth, decodedHeight): (Int32, Int32) = (0, 0)
        guard intranet_jpeg_decode_scaled(path, Int32(widths.last ?? 1), &image, &decodedWidth, &decodedHeight) == 0 else { return nil }
        defer { intranet_vips_release(image) }
        return ProcessedImage(format: .jpeg, full: full, variants: try variants(of: image, widths: widths, as: .jpeg))
    }

    /// The variants `widths` wide (ascending) of a decoded `image`, each shrunk from the next
    /// larger one, smallest first.
    private static func variants(of image: UnsafeMutableRawPointer?, widths: [Int], as format: ImageFormat) throws -> [EncodedImage] {
        var variants: [EncodedImage] = []
        var larger = image
        defer { if larger != image { intranet_vips_release(larger) } }
        for variantWidth in widths.reversed() {
            var resized: UnsafeMutableRawPointer?
            var (outWidth, outHeight): (Int32, Int32) = (0, 0)
            guard intranet_vips_resize(larger, Int32(variantWidth), &resized, &outWidth, &outHeight) == 0 else {
                throw ImageRefusal.unreadable(lastError())
            }
            if larger != image { intranet_vips_release(larger) }
            larger = resized
            variants.insert(try save(resized, width: outWidth, height: outHeight, as: format), at: 0)
        }
        return variants
    }

    /// A decoded image encoded without metadata.
    private static func save(_ image: UnsafeMutableRawPointer?, width: Int32, height: Int32, as format: ImageFormat) throws -> EncodedImage {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard intranet_vips_save(image, format.vipsCode, &bytes, &length) == 0, let bytes else { throw ImageRefusal.unreadable(lastError()) }
        return EncodedImage(width: Int(width), height: Int(height), bytes: buffer(bytes, length))
    }

    /// The image decoded upright in sRGB, at most `width` wide, encoded without metadata.
    private static func encode(_ path: String, width: Int, allFrames: Int32, as format: ImageFormat) throws -> EncodedImage {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        var (outWidth, outHeight): (Int32, Int32) = (0, 0)
        guard intranet_vips_encode(path, allFrames, Int32(width), format.vipsCode, &bytes, &length, &outWidth, &outHeight) == 0, let bytes else {
            throw ImageRefusal.unreadable(lastError())
        }
        return EncodedImage(width: Int(outWidth), height: Int(outHeight), bytes: buffer(bytes, length))
    }

    /// A copy of libvips's encoded bytes, which are released.
    private static func buffer(_ bytes: UnsafeMutableRawPointer, _ length: Int) -> ByteBuffer {
        defer { intranet_vips_free(bytes) }
        return ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// libvips's last error, on one line, its buffer cleared.
    private static func lastError() -> String {
        var buffer = [UInt8](repeating: 0, count: 240)
        buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { intranet_vips_last_error($0, pointer.count) }
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? "the image library gave no reason" : text
    }
}
