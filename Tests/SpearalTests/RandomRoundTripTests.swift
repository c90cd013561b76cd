import Foundation
import Spearal
import Testing

@Suite("Seeded random round trips")
struct RandomRoundTripTests {
    /// A random value tree of at most `depth` levels, with some shared objects.
    static func randomValue(depth: Int, shared: inout [SpearalValue], using generator: inout SeededGenerator) -> SpearalValue {
        let kind = Int.random(in: 0..<(depth > 0 ? 15 : 10), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integral(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...63, using: &generator))
        case 3:
            // Odd thousandths are never integral: compact form, or raw once 0.0005 is added.
            let thousandths = Double(2 * Int.random(in: -100_000...100_000, using: &generator) + 1)
            return .floating(thousandths / 1000 + (Bool.random(using: &generator) ? 0.0005 : 0))
        case 4: return .string(["", "a", "héllo", "日本", "spearal", "x\u{0}y"].randomElement(using: &generator) ?? "")
        case 5: return .bigIntegral(String(Int.random(in: 1...999, using: &generator)) + String(repeating: "0", count: Int.random(in: 0...30, using: &generator)))
        case 6: return .bigFloating(["1.5", "-0.001", "1E+10", "3.14159"].randomElement(using: &generator) ?? "0")
        case 7: return .dateTime(SpearalDateTime(Date(timeIntervalSince1970: Double(Int.random(in: -4_000_000_000...4_000_000_000, using: &generator)) / 1000)))
        case 8: return .enumValue(SpearalEnumConstant(className: "E", name: ["A", "B"].randomElement(using: &generator) ?? "A"))
        case 9: return shared.randomElement(using: &generator) ?? .classValue("C")
        case 10: return .byteArray(SpearalBytes((0..<Int.random(in: 0...5, using: &generator)).map { UInt8($0) }))
        case 11, 12:
            let list = SpearalList()
            let value = SpearalValue.collection(list)
            shared.append(value)
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                list.elements.append(randomValue(depth: depth - 1, shared: &shared, using: &generator))
            }
            return value
        case 13:
            let map = SpearalMap()
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                map.entries.append((randomValue(depth: 0, shared: &shared, using: &generator),
                                    randomValue(depth: depth - 1, shared: &shared, using: &generator)))
            }
            return .map(map)
        default:
            let bean = SpearalBean(className: ["a.B", "a.C"].randomElement(using: &generator) ?? "a.B")
            let value = SpearalValue.bean(bean)
            shared.append(value)
            for name in ["x", "y", "z"] where Bool.random(using: &generator) {
                bean[name] = randomValue(depth: depth - 1, shared: &shared, using: &generator)
            }
            return value
        }
    }

    @Test("2,000 random graphs decode to equal values and re-encode to the same bytes")
    func randomGraphsRoundTrip() throws {
        var generator = SeededGenerator(seed: 2014)
        var failures: [String] = []

        for _ in 0..<2000 {
            var shared: [SpearalValue] = []
            let value = Self.randomValue(depth: 4, shared: &shared, using: &generator)
            let data = try SpearalEncoder().encodeValue(value)
            let decoded = try SpearalDecoder().decodeValue(from: data)
            let again = try SpearalEncoder().encodeValue(decoded)
            if decoded != value || again != data, failures.count < 3 {
                failures.append("\(value)")
            }
        }

        #expect(failures.isEmpty)
    }
}
