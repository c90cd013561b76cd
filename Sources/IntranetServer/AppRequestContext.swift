import Hummingbird
import IntranetAPI
import Logging

/// The per-request state the middleware chain fills in for the handlers.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The id of this request, sent back in `X-Request-Id` and attached to its log lines.
    var requestID = ""
    /// The negotiated API version (set by ``VersionMiddleware`` on versioned routes).
    var apiVersion: APIVersion = .latest
    /// The largest request body accepted, in bytes.
    var maxBodySize = AppConfiguration.defaultMaxBodySize

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    var maxUploadSize: Int { maxBodySize }
}
