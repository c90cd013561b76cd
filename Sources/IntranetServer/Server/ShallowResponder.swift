import Hummingbird

/// Answers each request in a child task of the connection's, so that what answering needed
/// is given back when the answer is ready.
///
/// A Swift task keeps the memory its deepest call needed until it ends: a connection's task
/// that once went through the whole middleware chain kept about 20 KB for as long as the
/// connection stayed open — a live stream (`GET /events`) or an idle keep-alive connection
/// held it for hours. In a child task that memory goes with the child, and the connection's
/// own task only writes the answer (and a stream's events) from a shallow stack.
struct ShallowResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: Sendable {
    typealias Context = Inner.Context

    /// The chain that answers.
    let inner: Inner

    func respond(to request: Request, context: Context) async throws -> Response {
        try await withThrowingTaskGroup(of: Response.self) { group in
            group.addTask { try await inner.respond(to: request, context: context) }
            // The one child answers or throws; its error is the request's.
            guard let response = try await group.next() else { throw CancellationError() }
            return response
        }
    }
}
