import Crypto
import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// An uploaded file as received: in a temporary file of its own, which ``discard()`` removes.
struct ReceivedFile: Sendable {
    /// The temporary file.
    var path: String
    var size: Int64
    /// Lowercase hex SHA-256 of its bytes.
    var sha256: String
    /// Its first bytes (up to 512), which tell its type.
    var head: [UInt8]

    /// Removes the temporary file.
    func discard() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Why an upload was not received.
enum UploadError: Error, Equatable {
    /// More bytes than the limit came.
    case tooLarge(limit: Int64)
}

/// Writes an upload's bytes to a temporary file as they arrive, hashing them on the way, so no
/// request holds a whole file in memory; stops at the limit. Whoever writes calls ``abandon()``
/// when anything fails (the body ends early, the limit is passed), so nothing half-received
/// remains.
///
/// Pieces are gathered up to 1 MiB and written with one system call each, hashed from the same
/// memory (no copy).
struct FileSink {
    private let descriptor: Int32
    private var hasher = SHA256()
    private var pending: ByteBuffer
    private(set) var size: Int64 = 0
    private(set) var head: [UInt8] = []
    let path: String
    let limit: Int64
    private static let gathered = 1 << 20

    /// Opens a new temporary file (readable by its owner only) in `directory`.
    init(limit: Int64, directory: String = FileManager.default.temporaryDirectory.path) throws {
        path = directory + "/intranet-upload-" + UUID().uuidString
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        pending = ByteBufferAllocator().buffer(capacity: Self.gathered)
        self.limit = limit
    }

    /// Appends `bytes`.
    ///
    /// - Throws: ``UploadError/tooLarge(limit:)`` past the limit.
    mutating func write(_ bytes: ByteBuffer) throws {
        guard bytes.readableBytes > 0 else { return }
        size += Int64(bytes.readableBytes)
        guard size <= limit else { throw UploadError.tooLarge(limit: limit) }
        if head.count < 512 { head.append(contentsOf: bytes.readableBytesView.prefix(512 - head.count)) }
        var bytes = bytes
        pending.writeBuffer(&bytes)
        if pending.readableBytes >= Self.gathered { try flush() }
    }

    /// Appends `bytes`.
    mutating func write(_ bytes: some Collection<UInt8>) throws {
        try write(ByteBuffer(bytes: bytes))
    }

    /// Hashes and writes what was gathered.
    private mutating func flush() throws {
        let descriptor = descriptor
        var hasher = self.hasher
        try pending.withUnsafeReadableBytes { raw in
            hasher.update(bufferPointer: raw)
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CocoaError(.fileWriteUnknown)
                }
                offset += written
            }
        }
        self.hasher = hasher
        pending.clear()
    }

    /// Closes the file and describes it.
    func finish() throws -> ReceivedFile {
        var last = self
        try last.flush()
        close(descriptor)
        return ReceivedFile(path: path, size: size, sha256: Data(last.hasher.finalize()).hexString, head: head)
    }

    /// Closes and removes the file (not after ``finish()``, which closed it).
    func abandon() {
        close(descriptor)
        unlink(path)
    }

    /// Receives a whole raw body into a new temporary file.
    ///
    /// - Throws: ``UploadError/tooLarge(limit:)``, or what the body threw (a client that went
    ///   away mid-body); the file is removed then.
    static func receive<Body: AsyncSequence>(_ body: Body, limit: Int64) async throws -> ReceivedFile where Body.Element == ByteBuffer {
        var sink = try FileSink(limit: limit)
        do {
            for try await buffer in body {
                try sink.write(buffer)
            }
            return try sink.finish()
        } catch {
            sink.abandon()
            throw error
        }
    }
}
