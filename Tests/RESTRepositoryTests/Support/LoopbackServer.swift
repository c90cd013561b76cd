import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-purpose HTTP/1.1 server on 127.0.0.1 and a free port, for testing
/// `URLSessionTransport` over a real socket without a server framework.
///
/// Each connection's request is recorded; it is answered with `response` and closed, or, when
/// `response` is `nil`, left unanswered until ``stop()`` (for cancellation tests).
///
/// `@unchecked Sendable`: the recorded requests are guarded by `lock`; the socket is only
/// used by the accept thread after `init`.
final class LoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let response: String?
    private let lock = NSLock()
    private var requests: [String] = []
    private var openConnections: [Int32] = []

    init(response: String?) throws {
        self.response = response
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && listen(fd, 8) == 0
                    && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A complete HTTP/1.1 answer with `Content-Length` and `Connection: close`.
    static func answer(_ status: String, headers: [String] = [], body: String = "") -> String {
        let head = ["HTTP/1.1 \(status)"] + headers + [
            "Content-Length: \(body.utf8.count)", "Connection: close",
        ]
        return head.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// The base URL of the server.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The raw requests received so far (head and body).
    var receivedRequests: [String] {
        lock.withLock { requests }
    }

    /// Stops accepting and closes every connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        let connections = lock.withLock { openConnections }
        for connection in connections {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let request = readRequest(connection)
            lock.withLock { requests.append(request) }
            guard let response else {
                lock.withLock { openConnections.append(connection) }
                continue
            }
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            close(connection)
        }
    }

    /// Reads the head and, per `Content-Length`, the body.
    private func readRequest(_ connection: Int32) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
            let text = String(decoding: data, as: UTF8.self)
            guard let headEnd = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<headEnd.lowerBound].lowercased()
            let length = head.split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text[..<headEnd.upperBound].utf8.count >= length { break }
        }
        return String(decoding: data, as: UTF8.self)
    }
}
