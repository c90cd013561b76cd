// feed-demo: an announcements screen in a terminal, built on IntranetClient alone. It reads
// commands from standard input (r refresh, m more, o ID open, c close, q quit) and prints the
// screen after each, as a SwiftUI view would redraw (see FeedView.swift).
import FeedScreen
import Foundation
import IntranetClient

let arguments = CommandLine.arguments
let serverText = arguments.firstIndex(of: "--server").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    ?? ProcessInfo.processInfo.environment["INTRANET_SERVER"] ?? "http://127.0.0.1:8080"
guard let server = URL(string: serverText), server.scheme != nil else {
    FileHandle.standardError.write(Data("feed-demo: not a server URL: \(serverText)\n".utf8))
    exit(64)
}
// What was read is kept in the user's cache directory, so the screen works offline too.
let environment = ProcessInfo.processInfo.environment
let caches = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
let store = ResponseStore(fileURL: caches.appendingPathComponent("feed-demo/responses.sqlite"))
let client = IntranetClient(baseURL: server, configuration: IntranetClientConfiguration(responseStore: store))
let feed = AnnouncementFeed(repository: client.announcements, pageSize: 5)

await FeedCommand.refresh.perform(on: feed)
print(FeedScreen(await feed.snapshot).lines.joined(separator: "\n"))
while let line = readLine() {
    guard let command = FeedCommand(line.trimmingCharacters(in: .whitespaces)) else {
        print("? r refresh, m more, o ID open, c close, q quit")
        continue
    }
    guard await command.perform(on: feed) else { break }
    print(FeedScreen(await feed.snapshot).lines.joined(separator: "\n"))
}
