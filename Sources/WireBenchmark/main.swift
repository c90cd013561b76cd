/// How long the SDK takes to decode the bodies intranet-server answers, JSON against Spearal.
///
/// Run in release on bodies saved from a server (`scripts/bench-wire` saves and passes them):
///
///     swift run -c release WireBenchmark [--runs N] FILE… | DIRECTORY
///
/// Each file is one response body, named `FORMAT-READ[-filtered].EXT`: `FORMAT` is `json` or
/// `spearal`; `READ` names the read and contains `list` (a list page) or `detail` (one
/// announcement), e.g. `v1-list` or `v2-detail`; `-filtered` marks an answer narrowed by
/// `?fields=` or `Spearal-PropertyFilter`; the extension is ignored. Given a directory, it reads
/// every file in it whose name starts with `json-` or `spearal-`.
///
/// Bodies are decoded exactly as the SDK decodes them: through `RESTResponse.decodeList` (list
/// pages) or `RESTResponse.decode` (details) with the coder `IntranetClient` builds for the
/// format, into `[AnnouncementSummary]` and `Announcement`, or `[PartialAnnouncement]` and
/// `PartialAnnouncement` for filtered answers. For each read and variant it prints the bytes
/// and the median thread CPU time of one decode (`--runs` runs, 51 by default, all bodies taking
/// turns so each sees the same machine load), and whether the JSON and Spearal twins decoded to
/// equal values. Exits 1 when some twins differ beyond the millisecond (the API's precision).
import Foundation
import IntranetClient

/// The body format, from the file name's prefix.
enum Format: String, CaseIterable {
    case json
    case spearal

    /// The coder the SDK uses for this format (as `IntranetClient` builds it).
    var coder: any BodyCoder {
        switch self {
        case .json: JSONBodyCoder(makeEncoder: { IntranetJSON.encoder() }, makeDecoder: { IntranetJSON.decoder() })
        case .spearal: SpearalBodyCoder()
        }
    }
}

/// Which read a body answered and how: the key JSON and Spearal twins share.
struct Variant: Hashable {
    /// The read's name from the file name, e.g. `v1-list`.
    var read: String
    /// Whether the answer was narrowed to some properties.
    var filtered: Bool

    /// Whether the read is a list page (else a detail).
    var isList: Bool { read.contains("list") }
}

/// What a body decodes into, so the two formats' results can be compared.
enum Decoded: Equatable {
    case list([AnnouncementSummary])
    case partialList([PartialAnnouncement])
    case detail(Announcement)
    case partialDetail(PartialAnnouncement)

    /// How many announcements it holds.
    var count: Int {
        switch self {
        case .list(let items): items.count
        case .partialList(let items): items.count
        case .detail, .partialDetail: 1
        }
    }

    /// The same with every date rounded to the millisecond, the precision the API promises.
    var withDatesToTheMillisecond: Decoded {
        func round(_ date: Date?) -> Date? {
            date.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) }
        }
        func rounded(_ item: PartialAnnouncement) -> PartialAnnouncement {
            var copy = item
            copy.createdAt = round(item.createdAt)
            copy.updatedAt = round(item.updatedAt)
            return copy
        }
        switch self {
        case .list: return self
        case .partialList(let items): return .partialList(items.map(rounded))
        case .partialDetail(let item): return .partialDetail(rounded(item))
        case .detail(var item):
            item.createdAt = round(item.createdAt)
            item.updatedAt = round(item.updatedAt)
            return .detail(item)
        }
    }

    /// The announcements, each described by `describe(_:)`.
    var descriptions: [String] {
        switch self {
        case .list(let items): items.map(describe)
        case .partialList(let items): items.map(describe)
        case .detail(let item): [describe(item)]
        case .partialDetail(let item): [describe(item)]
        }
    }

    /// The first announcement that differs from `other`'s: its index and both descriptions.
    func firstDifference(from other: Decoded) -> String {
        let mine = descriptions
        let theirs = other.descriptions
        for index in 0..<max(mine.count, theirs.count) {
            let left = index < mine.count ? mine[index] : "(none)"
            let right = index < theirs.count ? theirs[index] : "(none)"
            if left != right { return "item \(index):\n  JSON:    \(left)\n  Spearal: \(right)" }
        }
        return "unequal, though every item describes the same"
    }
}

/// A model value's properties, its dates as the exact `TimeInterval` they hold (a `Date`
/// prints whole seconds) and long strings cut short.
func describe(_ value: Any) -> String {
    let properties = Mirror(reflecting: value).children.map { child in
        let text: String
        switch child.value {
        case let date as Date: text = "\(date.timeIntervalSinceReferenceDate) s since 2001"
        case let date as Date?: text = date.map { "\($0.timeIntervalSinceReferenceDate) s since 2001" } ?? "nil"
        default:
            let full = String(describing: child.value)
            text = full.count > 60 ? full.prefix(60) + "…" : full
        }
        return "\(child.label ?? "_"): \(text)"
    }
    return "\(type(of: value))(" + properties.joined(separator: ", ") + ")"
}

/// One saved response body.
struct SavedBody {
    var url: URL
    var format: Format
    var variant: Variant
    var response: RESTResponse

    /// Reads `url`, taking format and variant from its name.
    init(url: URL) throws {
        let stem = url.deletingPathExtension().lastPathComponent
        guard let format = Format.allCases.first(where: { stem.hasPrefix($0.rawValue + "-") }) else {
            throw UsageError("\(url.lastPathComponent): the name must start with json- or spearal-")
        }
        var read = String(stem.dropFirst(format.rawValue.count + 1))
        let filtered = read.hasSuffix("-filtered")
        if filtered { read = String(read.dropLast("-filtered".count)) }
        guard read.contains("list") || read.contains("detail") else {
            throw UsageError("\(url.lastPathComponent): the read must contain list or detail")
        }
        self.url = url
        self.format = format
        self.variant = Variant(read: read, filtered: filtered)
        self.response = RESTResponse(head: HTTPResponse(status: .ok), body: try Data(contentsOf: url))
    }

    /// Decodes the body the way the SDK does for this read.
    func decode(using coder: any BodyCoder) throws -> Decoded {
        switch (variant.isList, variant.filtered) {
        case (true, false): .list(try response.decodeList(AnnouncementSummary.self, using: coder))
        case (true, true): .partialList(try response.decodeList(PartialAnnouncement.self, using: coder))
        case (false, false): .detail(try response.decode(Announcement.self, using: coder))
        case (false, true): .partialDetail(try response.decode(PartialAnnouncement.self, using: coder))
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// CPU time of the calling thread in nanoseconds (less disturbed by other processes than wall time).
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Decodes each body `runs` times, the bodies taking turns, after one warm-up decode each;
/// returns each body's median thread CPU time in milliseconds.
func medianDecodeMilliseconds(_ bodies: [SavedBody], runs: Int) throws -> [Double] {
    let coders = bodies.map(\.format.coder)
    for (body, coder) in zip(bodies, coders) { _ = try body.decode(using: coder) }
    var samples = Array(repeating: [Double](), count: bodies.count)
    for _ in 0..<runs {
        for index in bodies.indices {
            let start = threadCPUNanoseconds()
            _ = try bodies[index].decode(using: coders[index])
            samples[index].append(Double(threadCPUNanoseconds() - start) / 1_000_000)
        }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
}

/// The files named on the command line, a directory's `json-*` and `spearal-*` files in name order.
func bodyURLs(_ paths: [String]) throws -> [URL] {
    try paths.flatMap { path -> [URL] in
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError("\(path): no such file or directory")
        }
        guard isDirectory.boolValue else { return [URL(fileURLWithPath: path)] }
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            .filter { name in Format.allCases.contains { name.hasPrefix($0.rawValue + "-") } }
            .map { URL(fileURLWithPath: path).appendingPathComponent($0) }
    }
}

/// `text` padded to `width` characters, on the left unless `left`.
func column(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

/// Decodes and times the bodies `arguments` name and prints the table; returns whether every
/// pair of twins decoded to the same announcements (dates to the millisecond).
func run(_ arguments: [String]) throws -> Bool {
    var paths = arguments
    var runs = 51
    if let flag = paths.firstIndex(of: "--runs") {
        guard flag + 1 < paths.count, let value = Int(paths[flag + 1]), value > 0 else {
            throw UsageError("--runs needs a positive number")
        }
        runs = value
        paths.removeSubrange(flag...flag + 1)
    }
    guard !paths.isEmpty else {
        throw UsageError("usage: WireBenchmark [--runs N] FILE… | DIRECTORY  (files named FORMAT-READ[-filtered].EXT)")
    }
    let bodies = try bodyURLs(paths).map(SavedBody.init(url:))
    guard !bodies.isEmpty else { throw UsageError("no json-* or spearal-* files in \(paths.joined(separator: " "))") }

    let decoded = try bodies.map { body in
        do {
            return try body.decode(using: body.format.coder)
        } catch {
            throw UsageError("\(body.url.lastPathComponent): the SDK could not decode it: \(error)")
        }
    }
    let milliseconds = try medianDecodeMilliseconds(bodies, runs: runs)

    var variants: [Variant] = []
    for body in bodies where !variants.contains(body.variant) { variants.append(body.variant) }

    print("SDK decode time of one body: median of \(runs) runs, thread CPU time, "
          + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
    print(column("read", 11, left: true) + column("variant", 9, left: true) + column("items", 6)
          + column("JSON bytes", 12) + column("JSON ms", 9) + column("Spearal bytes", 15) + column("Spearal ms", 12)
          + column("Spearal/JSON", 14) + "  same values")
    var notes: [String] = []
    var allSame = true
    for variant in variants {
        func index(_ format: Format) -> Int? {
            bodies.indices.first { bodies[$0].variant == variant && bodies[$0].format == format }
        }
        let json = index(.json)
        let spearal = index(.spearal)
        let name = variant.read + (variant.filtered ? " filtered" : " full")
        let items = (json ?? spearal).map { decoded[$0].count } ?? 0
        func bytes(_ index: Int?) -> String { index.map { String(bodies[$0].response.body.count) } ?? "-" }
        func time(_ index: Int?) -> String { index.map { String(format: "%.3f", milliseconds[$0]) } ?? "-" }
        var ratio = "-"
        var same = "-"
        if let json, let spearal {
            ratio = String(format: "%.2fx", milliseconds[spearal] / milliseconds[json])
            if decoded[json] == decoded[spearal] {
                same = "yes"
            } else if decoded[json].withDatesToTheMillisecond == decoded[spearal].withDatesToTheMillisecond {
                same = "yes (ms)"
                notes.append("\(name): equal to the millisecond, but some Dates differ below it; "
                             + decoded[json].firstDifference(from: decoded[spearal]))
            } else {
                same = "NO"
                allSame = false
                notes.append("\(name): different; " + decoded[json].firstDifference(from: decoded[spearal]))
            }
        }
        print(column(variant.read, 11, left: true) + column(variant.filtered ? "filtered" : "full", 9, left: true)
              + column(String(items), 6) + column(bytes(json), 12) + column(time(json), 9)
              + column(bytes(spearal), 15) + column(time(spearal), 12) + column(ratio, 14) + "  " + same)
    }
    notes.forEach { print($0) }
    return allSame
}

do {
    exit(try run(Array(CommandLine.arguments.dropFirst())) ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("WireBenchmark: \(error)\n".utf8))
    exit(2)
}
