import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Spearal
import Testing

extension TestClientProtocol {
    /// Sends a Spearal body (a bean of `className` with `properties`), asking for a Spearal answer.
    func sendSpearal(
        _ method: HTTPRequest.Method,
        _ uri: String,
        className: String = "intranet.Announcement",
        properties: [SpearalBean.Property],
        headers: HTTPFields = [:],
        as caller: Caller = .automatic
    ) async throws -> TestResponse {
        let message = try SpearalEncoder().encodeValue(.bean(SpearalBean(className: className, properties: properties)))
        return try await sendSpearal(method, uri, message: Array(message), headers: headers, as: caller)
    }

    /// Sends raw bytes as `application/spearal`, asking for a Spearal answer.
    func sendSpearal(
        _ method: HTTPRequest.Method,
        _ uri: String,
        message: [UInt8],
        headers: HTTPFields = [:],
        as caller: Caller = .automatic
    ) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/spearal"
        if headers[.accept] == nil { headers[.accept] = "application/spearal" }
        let sender: TestUser?
        switch caller {
        case .automatic: sender = .editor
        case .anonymous: sender = nil
        case .user(let user): sender = user
        }
        if let sender { headers[.authorization] = "Bearer \(sender.token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: message))
    }
}

extension TestResponse {
    /// The body decoded as one Spearal message.
    func spearal() throws -> SpearalValue {
        #expect(headers[.contentType] == "application/spearal", "not a Spearal answer: \(String(buffer: body))")
        return try SpearalDecoder().decodeValue(from: Data(buffer: body))
    }

    /// The body as one Spearal bean.
    func bean() throws -> SpearalBean {
        guard case .bean(let bean) = try spearal() else { throw SpearalShapeError(description: "not a bean: \(try spearal())") }
        return bean
    }

    /// The body as a Spearal collection of beans.
    func beans() throws -> [SpearalBean] {
        guard case .collection(let list) = try spearal() else { throw SpearalShapeError(description: "not a collection: \(try spearal())") }
        return try list.elements.map { element in
            guard case .bean(let bean) = element else { throw SpearalShapeError(description: "not a bean: \(element)") }
            return bean
        }
    }
}

struct SpearalShapeError: Error, CustomStringConvertible {
    var description: String
}

extension SpearalBean {
    /// The property names carried, as a set.
    var names: Set<String> { Set(properties.map(\.name)) }

    /// A string property's value.
    func string(_ name: String) -> String? {
        if case .string(let text)? = self[name] { return text }
        return nil
    }

    /// An integral property's value.
    func int(_ name: String) -> Int? {
        if case .integral(let number)? = self[name] { return number }
        return nil
    }
}
