import Foundation
import HTTPTypes
import Logging

/// Logs one line per request and one per response (method, URL, status, duration) through
/// swift-log, with secrets redacted.
///
/// Nothing is logged unless this middleware is installed. Header fields travel as metadata
/// (`http.headers`); the values of ``redactedFields`` and of query parameters named in
/// ``redactedQueryParameters`` are replaced by `<redacted>`. Bodies are never logged.
public struct LoggingMiddleware: TransportMiddleware {
    /// The placeholder written instead of a secret.
    public static let redacted = "<redacted>"

    /// The logger lines go to.
    public var logger: Logger
    /// The level of request and response lines.
    public var level: Logger.Level
    /// Shown before each path so lines carry the whole URL, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL?
    /// Header fields whose values are never logged.
    public var redactedFields: Set<HTTPField.Name>
    /// Query parameters whose values are never logged (lower-case names).
    public var redactedQueryParameters: Set<String>

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - logger: the logger to write to.
    ///   - level: the level of every line (`info` by default).
    ///   - baseURL: prefixed to logged paths.
    ///   - redactedFields: defaults to `Authorization`, `Proxy-Authorization`, `Cookie`,
    ///     `Set-Cookie` and `X-Signature`.
    ///   - redactedQueryParameters: defaults to `password`, `token`, `access_token`, `signature`.
    public init(
        logger: Logger,
        level: Logger.Level = .info,
        baseURL: URL? = nil,
        redactedFields: Set<HTTPField.Name> = [
            .authorization, .proxyAuthorization, .cookie, .setCookie, .xSignature,
        ],
        redactedQueryParameters: Set<String> = ["password", "token", "access_token", "signature"]
    ) {
        self.logger = logger
        self.level = level
        self.baseURL = baseURL
        self.redactedFields = redactedFields
        self.redactedQueryParameters = redactedQueryParameters
    }

    /// Logs the request, passes it on, and logs the response or the failure.
    public func intercept(
        _ request: HTTPRequest,
        body: Data?,
        next: @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        let line = "\(request.method.rawValue) \(loggedURL(request.path ?? "/"))"
        logger.log(level: level, "→ \(line)", metadata: ["http.headers": .string(render(request.headerFields))])
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let (response, data) = try await next(request, body)
            let elapsed = milliseconds(clock.now - start)
            logger.log(
                level: level, "← \(response.status.code) \(line) \(elapsed) ms",
                metadata: ["http.headers": .string(render(response.headerFields))])
            return (response, data)
        } catch {
            let elapsed = milliseconds(clock.now - start)
            logger.log(level: level, "✕ \(line) failed after \(elapsed) ms: \(error)")
            throw error
        }
    }

    /// The header fields as `Name: value` pairs, secrets redacted.
    func render(_ fields: HTTPFields) -> String {
        fields.map { field in
            let value = redactedFields.contains(field.name) ? Self.redacted : field.value
            return "\(field.name.rawName): \(value)"
        }.joined(separator: "; ")
    }

    /// The base URL and path, secret query values redacted.
    func loggedURL(_ pathAndQuery: String) -> String {
        let prefix = baseURL.map { $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString } ?? ""
        guard let mark = pathAndQuery.firstIndex(of: "?") else { return prefix + pathAndQuery }
        let query = pathAndQuery[pathAndQuery.index(after: mark)...]
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { pair -> String in
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let decoded = (name.removingPercentEncoding ?? name).lowercased()
                return redactedQueryParameters.contains(decoded) ? "\(name)=\(Self.redacted)" : String(pair)
            }
            .joined(separator: "&")
        return prefix + pathAndQuery[..<mark] + "?" + query
    }

    private func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
