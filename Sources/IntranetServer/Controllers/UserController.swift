import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI

/// The admins' account routes: `GET/POST /users`, `GET/PATCH/DELETE /users/{id}`.
struct UserController: Sendable {
    let accounts: any AccountRepository
    let hasher: PasswordHasher
    let maxBodySize: Int

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.get, "/users", list)
        routes.add(.post, "/users", create)
        routes.add(.get, "/users/{id}", show)
        routes.add(.patch, "/users/{id}", update)
        routes.add(.delete, "/users/{id}", delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.admin)
        let representation = try Representation(request, context: context, primary: .user)
        return try representation.response(try await accounts.users().map(\.api))
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.admin)
        let representation = try Representation(request, context: context, primary: .user)
        guard let user = try await accounts.user(id: try Self.userID(context)) else {
            throw APIError.notFound("No user has this id.")
        }
        return try representation.response(user.api)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.admin)
        let representation = try Representation(request, context: context, primary: .user)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: false)
        let new = try UserInput.newUser(from: json)
        let hash = try await hasher.hash(new.password)
        let user = try await accounts.createUser(username: new.username, displayName: new.displayName ?? new.username, role: new.role, passwordHash: hash)
        var response = try representation.response(user.api, status: .created)
        response.headers[.location] = "/users/\(user.id)"
        return response
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.admin)
        let id = try Self.userID(context)
        let representation = try Representation(request, context: context, primary: .user)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: true)
        let input = try UserInput.changes(from: json)
        var changes = UserChanges(displayName: input.displayName, role: input.role)
        if let password = input.password {
            changes.passwordHash = try await hasher.hash(password)
        }
        return try representation.response(try await accounts.updateUser(id: id, changes: changes).api)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.admin)
        try await accounts.deleteUser(id: try Self.userID(context))
        return Response(status: .noContent)
    }

    /// The `{id}` of the path (``PathID``).
    static func userID(_ context: AppRequestContext) throws -> Int {
        try PathID.parse(context, notFound: "No user has this id.")
    }
}
