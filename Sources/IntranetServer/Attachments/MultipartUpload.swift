import Foundation
import NIOCore

/// A `multipart/form-data` body (RFC 7578) read as it streams: the part named `file` goes to a
/// temporary file (``FileSink``), the other parts (small text fields of a web form) are kept.
struct MultipartUpload: Sendable {
    /// The part named `file`: its bytes, its file name and the type its sender declared.
    var file: ReceivedFile
    var fileName: String?
    var declaredType: String?
    /// The other parts' values, by name (the first of each name).
    var fields: [String: String]

    /// Most bytes of one text field, and most parts in all.
    static let maxFieldBytes = 16 * 1024
    static let maxParts = 20

    /// The boundary of a `multipart/form-data` content type; `nil` for another type.
    static func boundary(ofContentType contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Reads `body` with `boundary`; the `file` part may have at most `limit` bytes.
    ///
    /// - Throws: ``APIError`` 400 when the body is not well-formed multipart, has no part named
    ///   `file` or more than one; ``UploadError/tooLarge(limit:)``; what the body threw. No
    ///   temporary file remains then.
    static func read<Body: AsyncSequence>(_ body: Body, boundary: String, limit: Int64) async throws -> MultipartUpload
    where Body.Element == ByteBuffer {
        var parser = Parser(boundary: boundary, limit: limit)
        do {
            for try await buffer in body {
                try parser.feed(Array(buffer.readableBytesView))
            }
            return try parser.finish()
        } catch {
            parser.abandon()
            throw error
        }
    }

    private static func malformed(_ detail: String) -> APIError {
        APIError.badRequest("The multipart/form-data body \(detail).")
    }

    /// The reading state: before the first boundary, in a part's headers, in its body, after
    /// the closing boundary.
    private struct Parser {
        enum State { case preamble, headers, body, epilogue }

        let delimiter: [UInt8]
        let limit: Int64
        var state = State.preamble
        var pending: [UInt8] = []
        var parts = 0
        /// Bytes thrown away before the first boundary and after the last (at most 64 KiB).
        var skipped = 0
        var fields: [String: String] = [:]
        /// The current part: a field's name and bytes, or the file's sink.
        var fieldName: String?
        var fieldBytes: [UInt8] = []
        var sink: FileSink?
        var received: ReceivedFile?
        var fileName: String?
        var declaredType: String?

        init(boundary: String, limit: Int64) {
            delimiter = Array("\r\n--\(boundary)".utf8)
            self.limit = limit
            // The first boundary may start the body, with no CRLF before it.
            pending = Array("\r\n".utf8)
        }

        mutating func feed(_ bytes: [UInt8]) throws {
            pending.append(contentsOf: bytes)
            try advance()
        }

        mutating func advance() throws {
            while true {
                switch state {
                case .preamble, .body:
                    guard let found = Self.find(delimiter, in: pending) else {
                        if state == .preamble {
                            skipped += pending.count
                            guard skipped <= 64 * 1024 else { throw MultipartUpload.malformed("has no boundary in its first 64 KiB") }
                        }
                        // Keep only what could begin the delimiter; a part's bytes before it are taken.
                        let safe = pending.count - (delimiter.count - 1)
                        if safe > 0 {
                            if state == .body { try take(pending[..<safe]) }
                            pending.removeFirst(safe)
                        }
                        return
                    }
                    if state == .body { try take(pending[..<found]) }
                    pending.removeFirst(found)
                    // The two bytes after the delimiter tell the end (`--`) from the next part (CRLF).
                    let after = delimiter.count
                    guard pending.count >= after + 2 else { return }
                    if state == .body { try endPart() }
                    if pending[after] == UInt8(ascii: "-"), pending[after + 1] == UInt8(ascii: "-") {
                        state = .epilogue
                        continue
                    }
                    guard pending[after] == 0x0D, pending[after + 1] == 0x0A else {
                        throw MultipartUpload.malformed("has a boundary not followed by a line end")
                    }
                    pending.removeFirst(after + 2)
                    parts += 1
                    guard parts <= MultipartUpload.maxParts else { throw MultipartUpload.malformed("has more than \(MultipartUpload.maxParts) parts") }
                    state = .headers
                case .headers:
                    guard let end = Self.find(Array("\r\n\r\n".utf8), in: pending) else {
                        guard pending.count <= 8 * 1024 else { throw MultipartUpload.malformed("has a part whose headers are too long") }
                        return
                    }
                    try startPart(headers: Array(pending[..<end]))
                    pending.removeFirst(end + 4)
                    state = .body
                case .epilogue:
                    skipped += pending.count
                    pending.removeAll()
                    guard skipped <= 64 * 1024 else { throw MultipartUpload.malformed("goes on for more than 64 KiB after its closing boundary") }
                    return
                }
            }
        }

        mutating func startPart(headers: [UInt8]) throws {
            guard let text = String(bytes: headers, encoding: .utf8) else { throw MultipartUpload.malformed("has part headers that are not UTF-8") }
            var disposition: ContentDisposition?
            var type: String?
            for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { throw MultipartUpload.malformed("has a part header without a colon") }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-disposition" { disposition = ContentDisposition(value, backslashEscapes: false) }
                if name == "content-type" { type = value }
            }
            guard let disposition, disposition.type == "form-data", let name = disposition.parameters["name"] else {
                throw MultipartUpload.malformed("has a part without Content-Disposition: form-data and a name")
            }
            if name == "file" {
                guard received == nil, sink == nil else { throw MultipartUpload.malformed("has more than one part named 'file'") }
                sink = try FileSink(limit: limit)
                // HTML's form encoding writes a quote and line ends as %22, %0D, %0A.
                fileName = disposition.fileName.map {
                    $0.replacingOccurrences(of: "%22", with: "\"").replacingOccurrences(of: "%0D", with: "").replacingOccurrences(of: "%0A", with: "")
                }
                declaredType = type
                fieldName = nil
            } else {
                fieldName = name
                fieldBytes = []
            }
        }

        mutating func take(_ bytes: ArraySlice<UInt8>) throws {
            guard !bytes.isEmpty else { return }
            if sink != nil {
                try sink!.write(bytes)
            } else if fieldName != nil {
                fieldBytes.append(contentsOf: bytes)
                guard fieldBytes.count <= MultipartUpload.maxFieldBytes else {
                    throw MultipartUpload.malformed("has a field of more than \(MultipartUpload.maxFieldBytes) bytes")
                }
            }
        }

        mutating func endPart() throws {
            if let open = sink {
                received = try open.finish()
                sink = nil
            } else if let name = fieldName, fields[name] == nil {
                fields[name] = String(decoding: fieldBytes, as: UTF8.self)
            }
            fieldName = nil
        }

        mutating func finish() throws -> MultipartUpload {
            guard state == .epilogue else { throw MultipartUpload.malformed("ends before its closing boundary") }
            guard let received else { throw MultipartUpload.malformed("has no part named 'file'") }
            return MultipartUpload(file: received, fileName: fileName, declaredType: declaredType, fields: fields)
        }

        func abandon() {
            sink?.abandon()
            received?.discard()
        }

        /// Where `needle` first starts in `haystack`.
        static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count, let first = needle.first else { return nil }
            var index = 0
            let last = haystack.count - needle.count
            while index <= last {
                if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }
}
