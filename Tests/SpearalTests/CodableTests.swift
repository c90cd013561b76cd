import Foundation
import Spearal
import Testing

@Suite("Codable bridge")
struct CodableTests {
    static func everything() throws -> Everything {
        Everything(flag: true, count: -42, ratio: 2.5, small: 0.25, huge: UInt64.max, text: "héllo \"x\"",
                   missing: nil, when: Date(timeIntervalSince1970: 1_416_479_415.123),
                   blob: Data([1, 2, 3]), amount: try #require(Decimal(string: "12345678901234567890.5")),
                   numbers: [1, 2, 3], scores: ["b": 2, "a": 1], salutation: .ms,
                   link: try #require(URL(string: "https://example.org/a?b=c")),
                   nested: [PersonStruct(id: 1, name: "N", description: nil, imageUrl: nil)])
    }

    @Test("a struct encodes to the same bytes as spearal-java's Person")
    func structMatchesJavaBytes() throws {
        let person = PersonStruct(id: 1, name: "Uzumaki Naruto", description: "Konoha", imageUrl: nil)

        let data = try SpearalEncoder().encode(person)

        #expect(Hex.string(data) == (try ReferenceVectors.named("person").hex))
    }

    @Test("the Java Person bytes decode into the struct")
    func javaBytesDecodeIntoStruct() throws {
        let data = Data(try ReferenceVectors.named("person").bytes)

        let person = try SpearalDecoder().decode(PersonStruct.self, from: data)

        #expect(person == PersonStruct(id: 1, name: "Uzumaki Naruto", description: "Konoha", imageUrl: nil))
    }

    @Test("a model with every mapped type round-trips")
    func everythingRoundTrips() throws {
        let original = try Self.everything()

        let data = try SpearalEncoder().encode(original)
        let decoded = try SpearalDecoder().decode(Everything.self, from: data)

        #expect(decoded == original)
    }

    @Test("Foundation types map to their format types")
    func foundationTypesMapToFormatTypes() throws {
        let value = try SpearalEncoder().makeValue(try Self.everything())

        guard case .bean(let bean) = value else {
            Issue.record("expected a bean, got \(value)")
            return
        }
        #expect(bean.className == "Everything")
        #expect(bean.definedPropertyNames == bean.definedPropertyNames.sorted())
        #expect(bean["missing"] == .null)
        #expect(bean["huge"] == .bigIntegral("18446744073709551615"))
        #expect(bean["amount"] == .bigFloating("12345678901234567890.5"))
        #expect(bean["salutation"] == .enumValue(SpearalEnumConstant(className: "spearalref.Salutation", name: "MS")))
        #expect(bean["when"] == .dateTime(SpearalDateTime(year: 2014, month: 11, day: 20, hour: 10, minute: 30, second: 15, nanosecond: 123_000_000)))
        #expect(bean["blob"] == .byteArray(SpearalBytes([1, 2, 3])))
        #expect(bean["scores"] == .map(SpearalMap([(.string("a"), .integral(1)), (.string("b"), .integral(2))])))
        #expect(bean["numbers"] == .collection(SpearalList([.integral(1), .integral(2), .integral(3)])))
    }

    @Test("a Java enum decodes into a Swift enum")
    func javaEnumDecodes() throws {
        let data = Data(try ReferenceVectors.named("enum_mr").bytes)

        let salutation = try SpearalDecoder().decode(Salutation.self, from: data)

        #expect(salutation == .mr)
    }

    @Test("a value of the wrong type throws a DecodingError with the path")
    func typeMismatchThrows() throws {
        let data = try SpearalEncoder().encode(["id": "not a number"])

        let error = #expect(throws: DecodingError.self) { try SpearalDecoder().decode(OutdatedPerson.self, from: data) }

        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["id"])
    }

    @Test("a mismatched array element or date names its index or key in the error path")
    func leafMismatchPaths() throws {
        let list = try SpearalEncoder().encodeValue(.collection(SpearalList([.integral(1), .string("two")])))
        let listError = #expect(throws: DecodingError.self) { try SpearalDecoder().decode([Int].self, from: list) }
        let bean = try SpearalEncoder().encodeValue(.bean(SpearalBean(className: "Dated", properties: [("when", .string("now"))])))
        let beanError = #expect(throws: DecodingError.self) { try SpearalDecoder().decode(Dated.self, from: bean) }

        guard case .typeMismatch(_, let listContext)? = listError, case .typeMismatch(_, let beanContext)? = beanError else {
            Issue.record("expected typeMismatch errors, got \(String(describing: listError)), \(String(describing: beanError))")
            return
        }
        #expect(listContext.codingPath.map(\.intValue) == [1])
        #expect(beanContext.codingPath.map(\.stringValue) == ["when"])
    }

    @Test("top-level arrays and scalars encode without a bean")
    func topLevelCollections() throws {
        let data = try SpearalEncoder().encode(["spearal", "spearal"])

        let decoded = try SpearalDecoder().decode([String].self, from: data)

        #expect(Hex.string(data) == (try ReferenceVectors.named("list_repeated_string").hex))
        #expect(decoded == ["spearal", "spearal"])
    }
}

private struct Dated: Decodable {
    var when: Date
}
