import Hummingbird

/// Copies server settings that handlers need into each request's context.
struct ContextSettingsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let maxBodySize: Int

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.maxBodySize = maxBodySize
        return try await next(request, context)
    }
}
