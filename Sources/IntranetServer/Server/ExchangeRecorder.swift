import Foundation
import Logging

/// The one place an answered request is recorded — its metrics, its access log line and its
/// debug log line — whether the application answered it (``ProblemMiddleware``) or the event
/// loop did from an earlier answer (``PublicAnswerHandler``), so both paths count and log alike
/// and name routes the same way (``route``).
struct ExchangeRecorder: Sendable {
    /// Where each request's line goes, if anywhere.
    var accessLog: AccessLog?
    /// Counts each request, when metrics are on.
    var metrics: ServerMetrics?
    /// A route's template for a request path (`/announcements/{id}`), or `unmatched`.
    var route: @Sendable (String) -> String = { _ in "unmatched" }

    /// Whether anything is recorded beyond debug logging: callers skip timing otherwise.
    var isRecording: Bool { accessLog != nil || metrics != nil }

    /// Records one answered request: counted in the metrics under its route's template,
    /// written to the access log, and logged at debug level when `logger`'s level is debug.
    func record(_ exchange: AccessLog.Entry, logger: Logger?) {
        let path = String(exchange.target.prefix { $0 != "?" })
        metrics?.request(
            route: route(path), method: exchange.method, status: exchange.status, duration: exchange.duration, early: exchange.early)
        accessLog?.record(exchange)
        if let logger, logger.logLevel <= .debug {
            var metadata: Logger.Metadata = ["duration": "\(exchange.duration)"]
            if exchange.early {
                metadata["hb.request.id"] = "\(exchange.requestID)"
                metadata["answered"] = "early"
            }
            logger.debug("\(exchange.method) \(path) \(exchange.status)", metadata: metadata)
        }
    }
}
