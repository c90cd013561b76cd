/// How long the SDK takes to turn `GET /org` into an `OrgChart`, JSON against Spearal.
///
/// Run in release on bodies saved from a server (`scripts/bench-people` saves and passes them):
///
///     swift run -c release PeopleBenchmark [--runs N] JSON-FILE SPEARAL-FILE
///
/// Each body is answered by a `MockTransport` to `IntranetClient.people.org()`, exactly the
/// SDK's path (the JSON tree decoded and flattened, or the Spearal graph read into the value
/// model, walked, and dismantled). For each format it prints the bytes, the number of people and
/// the median wall time of one `org()` over `--runs` runs (21 by default), and checks that both
/// charts hold the same people with the same managers (exit 1 when not).
import Foundation
import HTTPTypes
import IntranetClient
import RESTRepositoryTesting

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 21
if let flag = arguments.firstIndex(of: "--runs"), flag + 1 < arguments.count, let value = Int(arguments[flag + 1]), value > 0 {
    runs = value
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: PeopleBenchmark [--runs N] JSON-FILE SPEARAL-FILE\n".utf8))
    exit(64)
}

/// The chart as `id → manager id`, to compare the two formats' results.
func links(_ chart: OrgChart) -> [Int: Int] {
    var links: [Int: Int] = [:]
    for member in chart.members {
        links[member.id] = member.manager?.id ?? 0
    }
    return links
}

var results: [[Int: Int]] = []
for (path, format, mediaType) in [(arguments[0], WireFormat.json, "application/json"), (arguments[1], WireFormat.spearal, "application/spearal")] {
    let body = try Data(contentsOf: URL(fileURLWithPath: path))
    let transport = MockTransport { _ in MockResponse(headerFields: [.contentType: mediaType], body: body) }
    let client = IntranetClient(transport: transport, format: format)
    var times: [Duration] = []
    var chart: OrgChart?
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        chart = try await client.people.org()
        times.append(clock.now - start)
    }
    times.sort()
    let median = times[times.count / 2]
    let milliseconds = Double(median.components.seconds) * 1000 + Double(median.components.attoseconds) / 1e15
    guard let chart else { exit(1) }
    results.append(links(chart))
    print(String(format: "%-8@ %10d bytes  %6d people  org() median %8.2f ms  (%d runs)", format.rawValue, body.count, chart.count, milliseconds, runs))
}
if results[0] != results[1] {
    print("the JSON and Spearal charts differ")
    exit(1)
}
print("both formats give the same chart")
