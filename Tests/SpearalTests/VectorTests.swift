import Foundation
import Spearal
import Testing

@Suite("Java reference vectors")
struct VectorTests {
    static let names: [String] = (try? ReferenceVectors.all().map(\.name)) ?? ["vectors.json not found"]

    @Test("every vector in vectors.json has a Swift description")
    func everyVectorIsDescribed() throws {
        let vectors = try ReferenceVectors.all()

        let undescribed = vectors.filter { DescribedValues.value(named: $0.name) == nil }.map(\.name)

        #expect(vectors.count >= 30)
        #expect(undescribed.isEmpty)
    }

    @Test("encoding the described value gives exactly the Java bytes", arguments: names)
    func encodingMatchesJava(name: String) throws {
        let vector = try ReferenceVectors.named(name)
        let value = try #require(DescribedValues.value(named: name))

        let hex = try Codec.encode(value)

        #expect(hex == vector.hex)
    }

    @Test("decoding the Java bytes gives the described value", arguments: names)
    func decodingMatchesDescription(name: String) throws {
        let vector = try ReferenceVectors.named(name)
        let expected = try #require(DescribedValues.decoded(named: name))

        let decoded = try Codec.decode(vector.hex)

        #expect(decoded == expected)
    }

    @Test("decoding then re-encoding reproduces the Java bytes", arguments: names)
    func reencodingReproducesBytes(name: String) throws {
        let vector = try ReferenceVectors.named(name)

        let hex = try Codec.encode(try Codec.decode(vector.hex))

        #expect(hex == vector.hex)
    }
}
