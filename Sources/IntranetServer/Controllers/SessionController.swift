import Foundation
import HTTPTypes
import Hummingbird
import IntranetAPI
import NIOCore

/// `POST /login`, `POST /logout`, `GET /users/me` (docs/api.md, "Accounts and sessions").
struct SessionController: Sendable {
    let auth: AuthService
    /// Where `GET /users/me` finds the signed-in user's person, to link to it.
    let people: any PersonRepository
    let maxBodySize: Int

    func addRoutes(to routes: inout RouteBook<AppRequestContext>) {
        routes.add(.post, "/login", login)
        routes.add(.post, "/logout", logout)
        routes.add(.get, "/users/me", me)
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let representation = try Representation(request, context: context, primary: .loginResponse)
        let json = try await RequestBody.value(of: request, limit: maxBodySize, allowsMergePatch: false)
        let credentials = try UserInput.login(from: json)
        let session = try await auth.login(username: credentials.username, password: credentials.password)
        var response = try representation.response(session)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole(.reader)
        if let token = context.bearerToken {
            try await auth.logout(token: token)
        }
        return Response(status: .noContent)
    }

    /// The signed-in account; when a person of the directory belongs to it, a
    /// `Link: </people/{id}>; rel="person"` header leads there (the account's shape stays that
    /// of every version).
    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireRole(.reader)
        var response = try Representation(request, context: context, primary: .user).response(user)
        if let person = try await people.person(ofUser: user.id) {
            response.headers[.link] = "<\(PersonController.collectionPath)/\(person.id)>; rel=\"person\""
        }
        return response
    }
}
