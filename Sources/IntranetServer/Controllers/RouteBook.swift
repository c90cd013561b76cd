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

    /// The methods that get a route of their own at every path (served, 405 or `OPTIONS`);
    /// any other method (`TRACE`, `PROPFIND`…) is answered by ``UnservedMethodMiddleware``.
    static var standardMethods: [HTTPRequest.Method] {
        [.get, .head, .post, .put, .patch, .delete, .options]
    }

    /// The methods served at the registered path that `requestPath` falls under, or `nil` when
    /// no route has such a path.
    /// Whether a route of this book serves `method` (`HEAD` as `GET`) at `requestPath`.
    func serves(_ method: HTTPRequest.Method, at requestPath: String) -> Bool {
        let method = method == .head ? .get : method
        return routes.contains { $0.method == method && Self.template($0.path, matches: requestPath) }
    }

    /// Whether `template` (`/announcements/{id}`) matches `requestPath` (`/announcements/7`).
    private static func template(_ template: String, matches requestPath: String) -> Bool {
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: true)
        let parts = template.split(separator: "/", omittingEmptySubsequences: true)
        return parts.count == segments.count
            && zip(parts, segments).allSatisfy { part, segment in
                (part.hasPrefix("{") && part.hasSuffix("}")) || part == segment
            }
    }

    func methods(servingRequestPath requestPath: String) -> [HTTPRequest.Method]? {
        template(servingRequestPath: requestPath).map { methods(servedAt: $0) }
    }

    /// The registered path (`/announcements/{id}`) that `requestPath` falls under (`{name}`
    /// matches any one segment), if any.
    func template(servingRequestPath requestPath: String) -> String? {
        routes.map(\.path).first { Self.template($0, matches: requestPath) }
    }
}

struct UnservedMethodMiddleware<Context: RequestContext>: RouterMiddleware {
    let books: [RouteBook<Context>]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !RouteBook<Context>.standardMethods.contains(request.method),
            let allowed = books.lazy.compactMap({ $0.methods(servingRequestPath: request.uri.path) }).first
        else {
            return try await next(request, context)
        }
        throw APIError.methodNotAllowed(allowed: allowed)
    }
}
