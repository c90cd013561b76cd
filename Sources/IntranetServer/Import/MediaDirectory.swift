import Foundation

/// A local copy of a WordPress site's `wp-content/uploads` directory: `…/wp-content/uploads/
/// 2024/05/x.jpg` is read from `DIR/2024/05/x.jpg`.
///
/// Nothing outside the directory is ever read: a reference's path has no `..` (see
/// ``UploadReference``), and a symbolic link inside the directory that leads out of it is
/// refused.
struct MediaDirectory: MediaSource {
    /// The directory, its symbolic links resolved.
    let root: String
    /// Most bytes one file may have.
    let limit: Int64

    /// - Throws: ``MediaReadError/notFound`` when `path` is not a directory.
    init(path: String, limit: Int64) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MediaReadError.notFound
        }
        root = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        self.limit = limit
    }

    func read(_ reference: UploadReference) async throws -> ReceivedFile {
        let path = URL(fileURLWithPath: root + "/" + reference.path).resolvingSymlinksInPath().path
        guard path.hasPrefix(root + "/") else { throw MediaReadError.outsideDirectory }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let input = FileHandle(forReadingAtPath: path)
        else { throw MediaReadError.notFound }
        defer { try? input.close() }
        var sink = try FileSink(limit: limit)
        do {
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try sink.write(chunk)
            }
            return try sink.finish()
        } catch UploadError.tooLarge(let limit) {
            throw MediaReadError.tooLarge(limit: limit)
        } catch {
            sink.abandon()
            throw MediaReadError.unreadable("cannot be read: \(error.localizedDescription)")
        }
    }
}
