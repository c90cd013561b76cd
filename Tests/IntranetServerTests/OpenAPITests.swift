import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import IntranetServer

@Suite("GET /openapi.json")
struct OpenAPITests {
    @Test("the OpenAPI 3.1 document lists every registered route and method")
    func coversRoutes() async throws {
        try await withTestServer { server, client in
            let response = try await client.send(.get, "/openapi.json")

            #expect(response.status == .ok)
            let document = try response.object()
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for route in server.routes {
                let operations = paths[route.path]
                #expect(operations?[route.method.rawValue.lowercased()] != nil, "\(route.method) \(route.path) is missing from openapi.json")
            }
            let documented = paths.flatMap { path, operations in
                operations.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
            }
            let registered = server.routes.map { "\($0.method.rawValue) \($0.path)" }
            #expect(Set(documented) == Set(registered))
        }
    }
}
