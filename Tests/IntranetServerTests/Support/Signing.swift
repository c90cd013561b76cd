import Foundation
import HTTPTypes
@testable import IntranetServer

/// Headers that sign a request for `app` at `time`.
func signed(_ app: (appID: String, secret: String), _ method: String, _ path: String, body: String = "", at time: Date = Date()) -> HTTPFields {
    let timestamp = String(Int64(time.timeIntervalSince1970 * 1000))
    let signature = RequestSignature.compute(secret: app.secret, timestamp: timestamp, method: method, pathWithQuery: path, body: Array(body.utf8))
    return [SignatureMiddleware.appID: app.appID, SignatureMiddleware.timestamp: timestamp, SignatureMiddleware.signature: signature]
}
