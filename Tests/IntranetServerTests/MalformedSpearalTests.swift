import Foundation
import HTTPTypes
import HummingbirdTesting
import Spearal
import Testing
@testable import IntranetServer

/// Spearal bodies a broken or hostile client sends: always a 400 problem naming what is wrong,
/// never a crash or a 500, and nothing changed.
@Suite("Malformed Spearal bodies")
struct MalformedSpearalTests {
    /// A valid PATCH body: `intranet.Announcement { title: "abc", body: "<p>x</p>" }`.
    static let valid: [UInt8] = {
        let bean = SpearalBean(className: "intranet.Announcement", properties: [("body", .string("<p>x</p>")), ("title", .string("abc"))])
        return Array((try? SpearalEncoder().encodeValue(.bean(bean))) ?? Data())
    }()

    /// The valid body with its `"abc"` string (STRING, one-byte length 3) replaced by `bytes`.
    static func replacingTitle(with bytes: [UInt8]) -> [UInt8] {
        let title: [UInt8] = [0x50, 0x03] + Array("abc".utf8)
        guard let range = valid.firstRange(of: title) else { return [] }
        var message = valid
        message.replaceSubrange(range, with: bytes)
        return message
    }

    static let cyclic: [UInt8] = {
        let bean = SpearalBean(className: "intranet.Announcement")
        bean.properties = [("title", .bean(bean))]
        defer { bean.properties = [] }
        return Array((try? SpearalEncoder().encodeValue(.bean(bean))) ?? Data())
    }()

    static let sharedListBomb: [UInt8] = {
        // 40 nested lists, each holding the next one twice: 2^40 values once expanded.
        var inner = SpearalList([.integral(1)])
        for _ in 0..<40 {
            inner = SpearalList([.collection(inner), .collection(inner)])
        }
        let bean = SpearalBean(className: "intranet.Announcement", properties: [("readers", .collection(inner)), ("title", .string("bomb"))])
        return Array((try? SpearalEncoder().encodeValue(.bean(bean))) ?? Data())
    }()

    /// A bean of `properties`, encoded.
    static func message(_ properties: [SpearalBean.Property]) -> [UInt8] {
        Array((try? SpearalEncoder().encodeValue(.bean(SpearalBean(className: "intranet.Announcement", properties: properties)))) ?? Data())
    }

    /// Lists nested `depth` deep, the innermost holding `innermost`; returns the outermost.
    static func nested(_ depth: Int, innermost: SpearalValue) -> SpearalList {
        var list = SpearalList([innermost])
        for _ in 1..<depth {
            list = SpearalList([.collection(list)])
        }
        return list
    }

    /// Two chains of 100 nested lists, each within the reader's own depth limit, the second's
    /// innermost list referring back to the first: 200 levels once references are followed.
    static let referenceChain: [UInt8] = {
        let first = nested(100, innermost: .integral(1))
        let second = nested(100, innermost: .collection(first))
        return message([("a", .collection(first)), ("readers", .collection(second)), ("title", .string("deep"))])
    }()

    @Test("each malformed body is a 400 problem naming the fault, and the announcement is unchanged", arguments: [
        ("empty", [], "ends early"),
        ("truncated in a string", Array(valid.dropLast(3)), "longer than the body"),
        ("truncated in a type's parameters", Array(valid.prefix(1)), "ends early"),
        ("an unknown type byte", [0xF3] + valid, "unknown type byte 0xf3"),
        ("a constant type byte that is not defined", replacingTitle(with: [0x07]), "unknown type byte 0x7"),
        ("a 10 MB string claimed in 4 bytes", replacingTitle(with: [0x52, 0x98, 0x96, 0x80] + Array("abc".utf8)), "longer than the body"),
        ("trailing bytes", valid + [0x00], "after the value"),
        ("a cycle where a scalar belongs", cyclic, "cycle"),
        ("a byte array where a string belongs", replacingTitle(with: [0x60, 0x03, 1, 2, 3]), "byte array at title"),
        ("shared references that expand the body", sharedListBomb, "expand"),
        ("references that nest deeper than JSON may", referenceChain, "nested deeper than 64 levels"),
        ("a property name longer than any the API has",
         message([(String(repeating: "n", count: 300), .collection(SpearalList(Array(repeating: .null, count: 1_000))))]),
         "a property name longer than 256 bytes"),
        ("a date where a string belongs", message([("title", .dateTime(SpearalDateTime(Date(timeIntervalSince1970: 0))))]), "a date at title"),
        ("a number beyond a double", message([("readers", .collection(SpearalList([.bigIntegral("1" + String(repeating: "0", count: 400))])))]),
         "a number beyond a double at readers[0]"),
        ("a reference to a string never sent", replacingTitle(with: [0x54, 0x09]), "string 9"),
        ("text that is not UTF-8", replacingTitle(with: [0x50, 0x02, 0xC3, 0x28]), "not UTF-8"),
    ] as [(String, [UInt8], String)])
    func malformed(name: String, message: [UInt8], explanation: String) async throws {
        try await withTestServer { _, client in
            let before = try await client.send(.get, "/announcements/2").text
            let response = try await client.sendSpearal(.patch, "/announcements/2", message: message)

            #expect(response.status == .badRequest, "\(name)")
            #expect(response.headers[.contentType] == "application/problem+json")
            let detail = try #require(try response.object()["detail"] as? String)
            #expect(detail.contains(explanation), "\(name): \(detail)")
            #expect(try await client.send(.get, "/announcements/2").text == before)
        }
    }

    @Test("a Spearal body larger than the body limit is 413")
    func tooLarge() async throws {
        try await withTestServer(configure: { $0.maxBodySize = 1_000 }) { _, client in
            let response = try await client.sendSpearal(.post, "/announcements", properties: [("title", .string(String(repeating: "x", count: 2_000)))])

            #expect(response.status == .contentTooLarge)
        }
    }

    @Test("3,000 mutations of valid bodies never crash the server or get a 5xx; each is answered")
    func mutations() async throws {
        try await withTestServer { _, client in
            var generator = SeededGenerator(seed: 0x5EA7A1)
            let seeds: [[UInt8]] = [Self.valid, Self.cyclic, Self.replacingTitle(with: [0x60, 0x01, 0x00])]
            var statuses: [Int: Int] = [:]
            for _ in 0..<3_000 {
                var message = seeds.randomElement(using: &generator) ?? Self.valid
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    mutate(&message, using: &generator)
                }
                let response = try await client.sendSpearal(.patch, "/announcements/3", message: message)
                statuses[Int(response.status.code), default: 0] += 1
                #expect(response.status.code < 500, "\(message)")
            }
            #expect(statuses.keys.allSatisfy { [200, 400, 422].contains($0) }, "\(statuses)")
            #expect((statuses[400] ?? 0) > 1_000)
        }
    }

    private func mutate(_ message: inout [UInt8], using generator: inout SeededGenerator) {
        guard !message.isEmpty else {
            message = [UInt8.random(in: 0...255, using: &generator)]
            return
        }
        let index = Int.random(in: 0..<message.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: message[index] = UInt8.random(in: 0...255, using: &generator)
        case 1: message[index] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 2: message.remove(at: index)
        default: message.insert(UInt8.random(in: 0...255, using: &generator), at: index)
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing mutation can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
