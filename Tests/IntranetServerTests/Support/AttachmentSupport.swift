import ChildProcess
import Crypto
import FluentKit
import ImageProbe
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import Testing
@testable import IntranetServer

/// The image fixtures (Fixtures/images, made with Pillow and exiftool; see its README.md).
enum ImageFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/images")

    /// The bytes of fixture `name`.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Lowercase hex SHA-256 of `data`.
    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}

extension TestClientProtocol {
    /// Uploads `data` as the raw body, named `name`, declared as `type`.
    func upload(
        _ data: Data, name: String, type: String = "application/octet-stream", to id: Int, headers extra: HTTPFields = [:],
        as caller: Caller = .editor
    ) async throws -> TestResponse {
        var headers = extra
        headers[.contentType] = type
        headers[.contentDisposition] = ContentDisposition.header(type: "attachment", fileName: name)
        if case .user(let user) = caller { headers[.authorization] = "Bearer \(user.token)" }
        return try await execute(uri: "/announcements/\(id)/attachments", method: .post, headers: headers, body: ByteBuffer(bytes: data))
    }

    /// Uploads `data` and returns the attachment's description.
    func attach(_ data: Data, name: String, type: String = "application/octet-stream", to id: Int) async throws -> [String: Any] {
        let response = try await upload(data, name: name, type: type, to: id)
        try #require(response.status == .created, "\(response.status): \(response.text)")
        return try response.object()
    }

    /// Reads `uri` with extra `headers`, as `caller`.
    func read(_ uri: String, headers: HTTPFields = [:], as caller: Caller = .anonymous) async throws -> TestResponse {
        try await send(.get, uri, headers: headers, as: caller)
    }
}

/// What the stored-file tables hold: files, their byte rows, attachments, variants.
struct StorageCounts: Equatable, CustomStringConvertible {
    var files: Int
    var chunks: Int
    var attachments: Int
    var variants: Int

    static func read(_ server: IntranetServer) async throws -> StorageCounts {
        let database = server.database.database
        let sql = try #require(database as? any SQLDatabase)
        func count(_ table: String) async throws -> Int {
            try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table).first()?.decode(column: "n", as: Int.self) ?? 0
        }
        return StorageCounts(
            files: try await count(StoredFiles.schema), chunks: try await count(DatabaseBlobStore.schema),
            attachments: try await count(AttachmentModel.schema), variants: try await count(AttachmentVariantModel.schema))
    }

    var description: String { "files \(files), chunks \(chunks), attachments \(attachments), variants \(variants)" }
}

/// Reads a file's metadata with exiftool (Debian's libimage-exiftool-perl): every tag, by group.
enum ExifTool {
    static func tags(of data: Data) throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("exif-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/exiftool"), arguments: ["-json", "-a", "-G1", "-n", file.path], environment: [:],
            separateErrors: true)
        let output = process.standardOutput.readDataToEndOfFile()
        process.waitUntilExit()
        let list = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]], "exiftool: \(String(decoding: output, as: UTF8.self))")
        return try #require(list.first)
    }
}

/// A served image read back with libvips (the ImageProbe target).
enum PixelProbe {
    /// How many bands the encoded image `data` has, and each band's mean over the region at
    /// `x`, `y`, `width` × `height`, in fractions of the image's size.
    static func means(of data: Data, x: Double, y: Double, width: Double, height: Double) throws -> (bands: Int, means: [Double]) {
        var bands: Int32 = 0
        var means = [Double](repeating: 0, count: 4)
        let result = data.withUnsafeBytes { bytes in
            means.withUnsafeMutableBufferPointer { image_probe_means(bytes.baseAddress, bytes.count, x, y, width, height, &bands, $0.baseAddress) }
        }
        try #require(result == 0, "libvips could not read the image")
        return (Int(bands), Array(means.prefix(Int(min(bands, 4)))))
    }
}
