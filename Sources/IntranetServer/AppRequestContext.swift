import Hummingbird
import IntranetAPI
import Logging

/// The per-request state the middleware chain fills in for the handlers.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The negotiated API version (set by ``VersionMiddleware`` on versioned routes).
    var apiVersion: APIVersion = .latest
    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }
}
