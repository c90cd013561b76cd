import HTTPTypes
import Hummingbird

/// Registers routes on a router and remembers them, so that
/// - every path answers the methods it does not serve with 405 and an `Allow` header, and
///   `OPTIONS` with 204 and `Allow`;
/// - tests can check that the OpenAPI document lists every route.
struct RouteBook<Context: RequestContext> {
    typealias Handler = @Sendable (Request, Context) async throws -> Response

    struct Route: Hashable, Sendable {
        var method: HTTPRequest.Method
        /// The path as registered, e.g. `/announcements/{id}`.
        var path: String
    }

    private(set) var routes: [Route] = []
    private var handlers: [Route: Handler] = [:]

    /// Adds a route; call ``register(on:)`` when all are added.
    mutating func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        let route = Route(method: method, path: path)
        routes.append(route)
        handlers[route] = handler
    }

    /// The methods a path serves, `HEAD` included where `GET` is.
    func methods(servedAt path: String) -> [HTTPRequest.Method] {
        routes.filter { $0.path == path }.flatMap { route in
            route.method == .get ? [HTTPRequest.Method.get, .head] : [route.method]
        }
    }

    /// Registers every route and the 405/OPTIONS answers of every path.
    func register(on router: some RouterMethods<Context>) {
        for route in routes {
            if let handler = handlers[route] {
                router.on(RouterPath(route.path), method: route.method, use: handler)
            }
        }
        var seen = Set<String>()
        for path in routes.map(\.path) where seen.insert(path).inserted {
            let allowed = methods(servedAt: path)
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            for method in Self.standardMethods where !allowed.contains(method) {
                router.on(RouterPath(path), method: method) { _, _ -> Response in
                    if method == .options {
                        return Response(status: .noContent, headers: [.allow: allow])
                    }
                    throw APIError.methodNotAllowed(allowed: allowed)
                }
            }
        }
    }

    private static var standardMethods: [HTTPRequest.Method] {
        [.get, .head, .post, .put, .patch, .delete, .options]
    }
}
