// The reference line of `scripts/bench-server`: a Hummingbird application with nothing but one
// route per file, each answering the file's bytes as JSON. What the intranet server does on top
// of this (versioning, sessions, caching, problem bodies) is what the benchmark prices.
//
// Usage: BareServer PORT PATH=FILE [PATH=FILE…]
import Foundation
import Hummingbird

let arguments = CommandLine.arguments.dropFirst()
guard let portText = arguments.first, let port = Int(portText), !arguments.dropFirst().isEmpty else {
    FileHandle.standardError.write(Data("usage: BareServer PORT PATH=FILE [PATH=FILE…]\n".utf8))
    exit(64)
}

let router = Router()
for route in arguments.dropFirst() {
    guard let separator = route.firstIndex(of: "="),
        let bytes = FileManager.default.contents(atPath: String(route[route.index(after: separator)...]))
    else {
        FileHandle.standardError.write(Data("BareServer: '\(route)' is not PATH=FILE of a readable file\n".utf8))
        exit(66)
    }
    let body = ByteBuffer(bytes: bytes)
    router.get(RouterPath(String(route[..<separator]))) { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
    }
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
