// Spearal vs Foundation JSON on 1,000 announcement DTOs.
//
// Run in release:  swift run -c release SpearalBenchmark
//
// Prints the median time of 21 alternating runs (wall and thread CPU time) for encoding and
// decoding the list with Spearal and with JSONEncoder/JSONDecoder (default strategies), the
// encoded sizes, and the same list encoded with a property filter keeping only `id` and `title`
// (JSON, which has no filter, encodes the same projection as a two-property struct). Then the
// filtered Spearal encode is timed against the unfiltered one, and a verdict is printed for
// each performance target:
//
//   - Spearal encode of the full list at least 3x faster than JSONEncoder (wall and CPU medians);
//   - Spearal decode of the full list at least 3x faster than JSONDecoder (wall and CPU medians);
//   - filtered Spearal encode at least as fast as unfiltered Spearal encode (wall and CPU medians).
import Foundation
import Spearal

struct Announcement: Codable, SpearalClassNamed {
    static let spearalClassName = "org.intranet.Announcement"
    var id: Int
    var title: String
    var body: String?
    var createdAt: Date
    var updatedAt: Date
}

/// What a filtered message carries: the properties the filter kept.
struct AnnouncementSummary: Codable, SpearalClassNamed {
    static let spearalClassName = "org.intranet.Announcement"
    var id: Int
    var title: String
}

func makeAnnouncements(count: Int) -> [Announcement] {
    let paragraph = "<p>The <strong>cafeteria</strong> on the 3rd floor is closed for renovation; "
        + "please use the one in building B. See <a href=\"https://intranet.example/kb/42\">details</a>.</p>\n"
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    return (0..<count).map { index in
        let body = index % 10 == 9 ? nil : "<h1>Notice \(index)</h1>\n" + String(repeating: paragraph, count: 6)
        return Announcement(id: index + 1, title: "Announcement number \(index + 1): building news",
                            body: body, createdAt: start.addingTimeInterval(Double(index) * 3600.25),
                            updatedAt: start.addingTimeInterval(Double(index) * 3600.25 + 61.5))
    }
}

/// CPU time of the calling thread in nanoseconds (less disturbed by other processes than wall time).
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Wall and thread-CPU medians, in milliseconds.
struct Timing {
    var wall: Double
    var cpu: Double
}

/// Runs `spearal` and `json` alternately `runs` times (so both see the same machine load) and
/// returns their median wall and CPU times.
func compare(runs: Int = 21, spearal: () throws -> Void, json: () throws -> Void) rethrows -> (Timing, Timing) {
    try compare(runs: runs, spearal, json)
}

/// Runs `first` and `second` alternately `runs` times and returns their median wall and CPU times.
func compare(runs: Int = 21, _ first: () throws -> Void, _ second: () throws -> Void) rethrows -> (Timing, Timing) {
    var samples: [[(wall: Double, cpu: Double)]] = [[], []]
    for _ in 0..<runs {
        for index in 0..<2 {
            let wallStart = DispatchTime.now().uptimeNanoseconds
            let cpuStart = threadCPUNanoseconds()
            try index == 0 ? first() : second()
            let cpu = Double(threadCPUNanoseconds() - cpuStart) / 1_000_000
            samples[index].append((Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1_000_000, cpu))
        }
    }
    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    let timings = samples.map { Timing(wall: median($0.map(\.wall)), cpu: median($0.map(\.cpu))) }
    return (timings.first ?? Timing(wall: 0, cpu: 0), timings.last ?? Timing(wall: 0, cpu: 0))
}

func report(_ label: String, _ timings: (Timing, Timing)) {
    let (spearal, json) = timings
    print(label.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(format: "Spearal %7.2f ms (cpu %7.2f)   JSON %7.2f ms (cpu %7.2f)   JSON/Spearal %.2fx (cpu %.2fx)",
                   spearal.wall, spearal.cpu, json.wall, json.cpu, json.wall / spearal.wall, json.cpu / spearal.cpu))
}

/// A target's verdict line: met only when both the wall and the CPU figures meet it.
func verdict(_ target: String, met: Bool, _ detail: String) -> String {
    "target \(target): \(met ? "met" : "NOT met") (\(detail))"
}

/// The verdict of a "Spearal at least `factor` times faster than JSON" target.
func speedupVerdict(_ target: String, _ timings: (Timing, Timing), factor: Double) -> String {
    let (spearal, json) = timings
    let wall = json.wall / spearal.wall
    let cpu = json.cpu / spearal.cpu
    return verdict(target, met: wall >= factor && cpu >= factor, String(format: "%.2f× wall, %.2f× cpu", wall, cpu))
}

func reportSize(_ label: String, spearal: Int, json: Int) {
    print(label.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(format: "Spearal %7d bytes   JSON %7d bytes   JSON/Spearal %.2fx", spearal, json, Double(json) / Double(spearal)))
}

let announcements = makeAnnouncements(count: 1000)
let summaries = announcements.map { AnnouncementSummary(id: $0.id, title: $0.title) }
var filter = SpearalPropertyFilter()
filter.keep(["id", "title"], of: Announcement.spearalClassName)

let spearalEncoder = SpearalEncoder()
let filteringEncoder = SpearalEncoder(propertyFilter: filter)
let spearalDecoder = SpearalDecoder()
let jsonEncoder = JSONEncoder()
let jsonDecoder = JSONDecoder()

/// `--profile encode|decode|encode-filtered|decode-filtered` loops one Spearal operation for a
/// profiler (`perf record`).
func profile(_ operation: String) throws {
    let data = try spearalEncoder.encode(announcements)
    let filtered = try filteringEncoder.encode(announcements)
    for _ in 0..<300 {
        switch operation {
        case "encode": _ = try spearalEncoder.encode(announcements)
        case "encode-filtered": _ = try filteringEncoder.encode(announcements)
        case "decode-filtered": _ = try spearalDecoder.decode([AnnouncementSummary].self, from: filtered)
        default: _ = try spearalDecoder.decode([Announcement].self, from: data)
        }
    }
}

let arguments = CommandLine.arguments
if let flag = arguments.firstIndex(of: "--profile"), flag + 1 < arguments.count {
    try profile(arguments[flag + 1])
    exit(0)
}

do {
    let spearalData = try spearalEncoder.encode(announcements)
    let jsonData = try jsonEncoder.encode(announcements)
    let filteredSpearal = try filteringEncoder.encode(announcements)
    let filteredJSON = try jsonEncoder.encode(summaries)

    // Sanity: both formats decode back to the same list.
    let checkSpearal = try spearalDecoder.decode([Announcement].self, from: spearalData)
    let checkJSON = try jsonDecoder.decode([Announcement].self, from: jsonData)
    guard checkSpearal.map(\.body) == checkJSON.map(\.body), checkSpearal.count == 1000 else {
        fatalError("round trip mismatch")
    }

    print("1,000 announcements; median of 21 alternating runs, wall time and thread CPU time "
          + "(\(ProcessInfo.processInfo.activeProcessorCount) cores)")
    let encoding = try compare(spearal: { _ = try spearalEncoder.encode(announcements) },
                               json: { _ = try jsonEncoder.encode(announcements) })
    report("encode full list", encoding)
    let decoding = try compare(spearal: { _ = try spearalDecoder.decode([Announcement].self, from: spearalData) },
                               json: { _ = try jsonDecoder.decode([Announcement].self, from: jsonData) })
    report("decode full list", decoding)
    reportSize("size full list", spearal: spearalData.count, json: jsonData.count)
    report("encode filtered (id, title)", try compare(spearal: { _ = try filteringEncoder.encode(announcements) },
                                                      json: { _ = try jsonEncoder.encode(summaries) }))
    report("decode filtered (id, title)", try compare(spearal: { _ = try spearalDecoder.decode([AnnouncementSummary].self, from: filteredSpearal) },
                                                      json: { _ = try jsonDecoder.decode([AnnouncementSummary].self, from: filteredJSON) }))
    reportSize("size filtered (id, title)", spearal: filteredSpearal.count, json: filteredJSON.count)

    // The filter must pay for itself: same list, same machine, the two encodes alternating.
    let (filtered, unfiltered) = try compare({ _ = try filteringEncoder.encode(announcements) },
                                             { _ = try spearalEncoder.encode(announcements) })
    print(String(format: "filtered encode vs unfiltered encode: %.2f ms vs %.2f ms (cpu %.2f ms vs %.2f ms)",
                 filtered.wall, unfiltered.wall, filtered.cpu, unfiltered.cpu))

    print("")
    print(speedupVerdict("encode ≥3× JSON", encoding, factor: 3))
    print(speedupVerdict("decode ≥3× JSON", decoding, factor: 3))
    print(verdict("filtered encode ≤ unfiltered encode",
                  met: filtered.wall <= unfiltered.wall && filtered.cpu <= unfiltered.cpu,
                  String(format: "%.2f ms vs %.2f ms wall, %.2f ms vs %.2f ms cpu",
                         filtered.wall, unfiltered.wall, filtered.cpu, unfiltered.cpu)))
} catch {
    print("benchmark failed: \(error)")
}
