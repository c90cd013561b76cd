import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
@testable import IntranetServer

/// Runs a test against a freshly migrated and seeded server on the given database.
func withTestServer(
    _ storage: TestStorage = .sqlite,
    mode: TestingSetup = .router,
    logger: Logger? = nil,
    configure: (inout AppConfiguration) -> Void = { _ in },
    _ test: @Sendable (IntranetServer, any TestClientProtocol) async throws -> Void
) async throws {
    guard storage == .postgres else {
        return try await runTestServer(storage, mode: mode, logger: logger, configure: configure, test)
    }
    try await PostgresGate.shared.withPermit {
        try await runTestServer(storage, mode: mode, logger: logger, configure: configure, test)
    }
}

private func runTestServer(
    _ storage: TestStorage,
    mode: TestingSetup,
    logger: Logger?,
    configure: (inout AppConfiguration) -> Void,
    _ test: @Sendable (IntranetServer, any TestClientProtocol) async throws -> Void
) async throws {
    var configuration = AppConfiguration()
    configuration.port = 0
    configuration.logLevel = .warning
    configuration.passwordCost = 4
    // Dozens of test servers share one PostgreSQL cluster at once: a small pool each keeps
    // them under its connection limit (a test that needs another size sets it).
    configuration.databasePoolSize = 2
    configuration.accessLog = nil  // a test that reads it turns it on
    var schema: String?
    switch storage {
    case .sqlite:
        configuration.storage = .sqliteInMemory
    case .postgres:
        let url = try #require(TestStorage.postgresURL)
        let name = try await PostgresSchema.create()
        schema = name
        configuration.storage = .postgres(url: url, schema: name)
    }
    configure(&configuration)
    do {
        let server = try await makeServer(configuration, logger: logger)
        do {
            try await TestUser.createAll(in: server)
        } catch {
            await server.database.close()
            throw error
        }
        do {
            try await server.application.test(mode) { client in
                try await test(server, client)
            }
        } catch {
            await server.database.close()  // when the test run never ran its services
            throw error
        }
        await server.database.close()
    } catch {
        if let schema { try? await PostgresSchema.drop(schema) }
        throw error
    }
    if let schema { try await PostgresSchema.drop(schema) }
}

extension TestClientProtocol {
    /// Sends a request with optional API version and JSON body.
    /// Sends a request as `user`; by default reads go signed out and writes as the editor.
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        version: String? = nil,
        headers: HTTPFields = [:],
        json: String? = nil,
        as caller: Caller = .automatic
    ) async throws -> TestResponse {
        var headers = headers
        if let version { headers[.acceptVersion] = version }
        let isRead = [.get, .head, .options].contains(method)
        let sender: TestUser?
        switch caller {
        case .automatic: sender = isRead ? nil : .editor
        case .anonymous: sender = nil
        case .user(let user): sender = user
        }
        if let sender, headers[.authorization] == nil {
            headers[.authorization] = "Bearer \(sender.token)"
        }
        var body: ByteBuffer?
        if let json {
            if headers[.contentType] == nil { headers[.contentType] = "application/json" }
            body = ByteBuffer(string: json)
        }
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body parsed as JSON.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(buffer: body), options: [.fragmentsAllowed])
    }

    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "not a JSON object: \(text)")
    }

    /// The body as an array of JSON objects.
    func objects() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "not an array of objects: \(text)")
    }
}

/// Request bodies for tests.
enum Body {
    /// A JSON object literal from its members (values already JSON).
    static func object(_ members: KeyValuePairs<String, String>) -> String {
        "{" + members.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
