/// A `Range` request header (RFC 9110 §14), as a file answer follows it.
enum ByteRanges: Equatable {
    /// Answer the whole file (`200`): no `Range`, one that is not `bytes=` or not well-formed
    /// (§14.2: such a header is ignored), or more ranges than ``maxRanges`` after merging.
    case whole
    /// Answer `416` with `Content-Range: bytes */size`: no range overlaps the file.
    case unsatisfiable
    /// Answer `206` with these ranges (half-open, merged, in order): one as a plain body, more as
    /// `multipart/byteranges`.
    case parts([Range<Int64>])

    /// Most ranges served in one answer; a request for more (after merging overlapping and
    /// adjacent ones) gets the whole file, as §14.2 allows against abuse.
    static let maxRanges = 16
    /// Longest `Range` value read; a longer one is ignored.
    static let maxHeaderLength = 1_024

    /// What `header` asks of a file of `size` bytes.
    init(_ header: String?, size: Int64) {
        guard let header, header.utf8.count <= Self.maxHeaderLength else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        var ranges: [Range<Int64>] = []
        for piece in trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false) {
            let spec = piece.trimmingCharacters(in: .whitespaces)
            // Empty list elements are allowed (§5.6.1); anything else malformed voids the header.
            if spec.isEmpty { continue }
            guard let dash = spec.firstIndex(of: "-") else { self = .whole; return }
            let first = spec[..<dash]
            let last = spec[spec.index(after: dash)...]
            guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), first.count <= 18, last.count <= 18 else {
                self = .whole
                return
            }
            if first.isEmpty {
                // A suffix: the last N bytes.
                guard let length = Int64(last) else { self = .whole; return }
                if length > 0, size > 0 { ranges.append(max(0, size - length)..<size) }
            } else {
                guard let start = Int64(first) else { self = .whole; return }
                let end = last.isEmpty ? nil : Int64(last)
                if let end, end < start { self = .whole; return }
                if start < size { ranges.append(start..<min(size, (end ?? size - 1) + 1)) }
            }
        }
        guard !ranges.isEmpty else {
            // Well-formed but nothing in the file: 416 (an empty list of specs is malformed).
            self = trimmed.count > 6 && trimmed.dropFirst(6).contains(where: { $0 != "," && $0 != " " }) ? .unsatisfiable : .whole
            return
        }
        var merged: [Range<Int64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self = merged.count > Self.maxRanges ? .whole : .parts(merged)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
