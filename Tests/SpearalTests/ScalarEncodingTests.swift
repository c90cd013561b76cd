import Foundation
import Spearal
import Testing

@Suite("Scalar encoding follows spearal-java")
struct ScalarEncodingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let value: @Sendable () -> SpearalValue
        let hex: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "-2^63 is sent as its 8 raw bytes without the sign flag", value: { .integral(Int.min) }, hex: "178000000000000000"),
        Case(name: "Int.max takes 8 magnitude bytes", value: { .integral(Int.max) }, hex: "177fffffffffffffff"),
        Case(name: "-256 is sign flag and two magnitude bytes", value: { .integral(-256) }, hex: "190100"),
        Case(name: "1.005 is rescued into the compact form", value: { .floating(1.005) }, hex: "3903ed"),
        Case(name: "2^52 as a double is raw", value: { .floating(4_503_599_627_370_496) }, hex: "304330000000000000"),
        Case(name: "2^52-1 as a double is integral", value: { .floating(4_503_599_627_370_495) }, hex: "160fffffffffffff"),
        Case(name: "-0.0 is raw", value: { .floating(-0.0) }, hex: "308000000000000000"),
        Case(name: "NaN is raw", value: { .floating(Double.nan) }, hex: "307ff8000000000000"),
        Case(name: "0.1 as a Float is widened and raw", value: { .floating(Double(Float(0.1))) }, hex: "303fb99999a0000000"),
        Case(name: "0.0001 has too many decimals and is raw", value: { .floating(0.0001) }, hex: "303f1a36e2eb1c432d"),
        Case(name: "1000 as a big integral is exponentized", value: { .bigIntegral("1000") }, hex: "2003 1d30"),
        Case(name: "100 as a big integral stays plain", value: { .bigIntegral("100") }, hex: "2003 1000"),
        Case(name: "-12000 as a big integral keeps its sign", value: { .bigIntegral("-12000") }, hex: "2005 b12d30"),
        Case(name: "a big floating is sent as its text", value: { .bigFloating("-1.5E+3") }, hex: "4007 b1c5da30"),
        Case(name: "a repeated big number is a string reference", value: {
            .collection(SpearalList([.bigFloating("3.14"), .bigFloating("3.14")]))
        }, hex: "8002 4004 3c14 4400"),
        Case(name: "a string equal to an earlier string is a reference", value: {
            .collection(SpearalList([.string("a"), .classValue("a"), .string("a")]))
        }, hex: "8003 500161 b400 5400"),
        Case(name: "an enum constant shares the string table", value: {
            .collection(SpearalList([.enumValue(SpearalEnumConstant(className: "S", name: "MR")), .string("MR")]))
        }, hex: "8002 a00153 50024d52 5401"),
        Case(name: "a class value is its name", value: { .classValue("java.lang.String") }, hex: "b0106a6176612e6c616e672e537472696e67"),
    ]

    @Test("values encode to the Java bytes", arguments: cases)
    func encodesLikeJava(testCase: Case) throws {
        let expected = Hex.string(Data(Hex.bytes(testCase.hex)))

        let hex = try Codec.encode(testCase.value())

        #expect(hex == expected)
    }

    @Test("values decode from the Java bytes", arguments: cases)
    func decodesLikeJava(testCase: Case) throws {
        let decoded = try Codec.decode(testCase.hex)

        let reencoded = try Codec.encode(decoded)

        #expect(reencoded == Hex.string(Data(Hex.bytes(testCase.hex))))
    }

    @Test("canonically equivalent but different strings are not merged by the string table")
    func stringTableComparesBytes() throws {
        let value = SpearalValue.collection(SpearalList([.string("\u{E9}"), .string("e\u{301}")]))

        let hex = try Codec.encode(value)

        #expect(hex == "8002" + "5002c3a9" + "500365cc81")
    }

    @Test("-2^63 decodes back to Int.min")
    func minimumIntegralRoundTrips() throws {
        let decoded = try Codec.decode("178000000000000000")

        #expect(decoded == .integral(Int.min))
    }

    @Test("1E21 decodes to a big integral equal to its plain digits")
    func exponentFormEqualsDigits() throws {
        let decoded = try Codec.decode("20041d21")

        #expect(decoded == .bigIntegral("1000000000000000000000"))
        #expect(decoded != .bigIntegral("100000000000000000000"))
    }

    @Test("compact decimals decode to the double the Java sender had")
    func compactDecimalDecodes() throws {
        let value = try Codec.decode("3d04e2")

        #expect(value == .floating(-1.25))
    }
}
