import Foundation
import Spearal
import Testing

@Suite("Malformed input throws a documented error")
struct MalformedInputTests {
    /// One malformed message and the error it must throw.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let hex: String
        let expected: SpearalError
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "empty message is truncated", hex: "", expected: .truncated(offset: 0, needed: 1)),
        Case(name: "integral missing a magnitude byte is truncated", hex: "11ff", expected: .truncated(offset: 1, needed: 1)),
        Case(name: "type byte 0x03 is unknown", hex: "03", expected: .unknownTypeByte(0x03, offset: 0)),
        Case(name: "type byte 0xD0 is unknown", hex: "80 01 d0", expected: .unknownTypeByte(0xD0, offset: 2)),
        Case(name: "string with invalid UTF-8", hex: "5002c328", expected: .invalidUTF8(offset: 2)),
        Case(name: "string reference before any string", hex: "5400", expected: .invalidStringReference(index: 0, offset: 1)),
        Case(name: "object reference before any object", hex: "8002 8801 00", expected: .invalidObjectReference(index: 1, offset: 3)),
        Case(name: "4 GiB string length in a 10-byte message", hex: "53ffffffff4141414141",
             expected: .lengthExceedsInput(length: 0xFFFF_FFFF, offset: 5)),
        Case(name: "4 GiB collection count in a 6-byte message", hex: "83ffffffff00",
             expected: .lengthExceedsInput(length: 0xFFFF_FFFF, offset: 1)),
        Case(name: "collections nested deeper than the limit", hex: String(repeating: "8001", count: 200) + "00",
             expected: .depthLimitExceeded(limit: 128, offset: 256)),
        Case(name: "bytes after the top-level value", hex: "1001 00 00", expected: .trailingBytes(count: 2, offset: 2)),
        Case(name: "negative integral beyond -2^63", hex: "1fffffffffffffffff", expected: .integralOverflow(offset: 0)),
        Case(name: "big number with a symbol outside the alphabet", hex: "2001e0", expected: .invalidBigNumber(offset: 1)),
        Case(name: "date with month 13", hex: "780d0100", expected: .invalidDateTime(offset: 0)),
        Case(name: "enum constant that is not a string", hex: "a001411001", expected: .invalidEnumConstant(offset: 3)),
        Case(name: "bean description without #", hex: "c00141", expected: .invalidClassDescription(offset: 1)),
    ]

    @Test("decoding malformed bytes throws the documented error", arguments: cases)
    func malformedBytesThrow(testCase: Case) throws {
        let data = Data(Hex.bytes(testCase.hex))

        let error = #expect(throws: SpearalError.self) { try SpearalDecoder().decodeValue(from: data) }

        #expect(error == testCase.expected)
    }

    @Test("a 4 GiB length is rejected without allocating it")
    func hugeLengthIsRejectedCheaply() {
        let data = Data(Hex.bytes("63ffffffff0102030405"))

        #expect(throws: SpearalError.lengthExceedsInput(length: 0xFFFF_FFFF, offset: 5)) {
            try SpearalDecoder().decodeValue(from: data)
        }
    }

    @Test("the depth limit is configurable")
    func depthLimitIsConfigurable() throws {
        let data = Data(Hex.bytes(String(repeating: "8001", count: 5) + "00"))
        let strict = SpearalDecoder(options: SpearalDecodingOptions(maxDepth: 4))

        let lenient = try SpearalDecoder().decodeValue(from: data)

        #expect(throws: SpearalError.depthLimitExceeded(limit: 4, offset: 8)) { try strict.decodeValue(from: data) }
        #expect(lenient != .null)
    }

    @Test("trailing bytes can be allowed by the options")
    func trailingBytesCanBeAllowed() throws {
        let decoder = SpearalDecoder(options: SpearalDecodingOptions(rejectsTrailingBytes: false))

        let value = try decoder.decodeValue(from: Data([0x10, 0x01, 0x00]))

        #expect(value == .integral(1))
    }

    @Test("encoding an out-of-range date throws unencodableValue")
    func invalidDateIsUnencodable() {
        let date = SpearalDateTime(year: 2024, month: 13, day: 1)

        #expect(throws: SpearalError.self) { try SpearalEncoder().encodeValue(.dateTime(date)) }
    }

    @Test("encoding big-number text outside the alphabet throws unencodableValue")
    func invalidBigNumberIsUnencodable() {
        let error = #expect(throws: SpearalError.self) { try SpearalEncoder().encodeValue(.bigIntegral("12x")) }

        guard case .unencodableValue? = error else {
            Issue.record("expected unencodableValue, got \(String(describing: error))")
            return
        }
    }

    @Test("a filter header value without # throws invalidPropertyFilter")
    func invalidFilterHeaderThrows() {
        #expect(throws: SpearalError.invalidPropertyFilter("Person")) {
            try SpearalPropertyFilter(headerValues: ["Person"])
        }
    }
}
