import Foundation
import Spearal

/// One golden vector produced by spearal-java, the reference implementation
/// (`Tests/SpearalTests/Fixtures/spearal-java-vectors.json`).
struct ReferenceVector: Decodable, Sendable, CustomStringConvertible {
    let name: String
    let description: String
    let hex: String

    var bytes: [UInt8] { Hex.bytes(hex) }
}

/// Loads the vectors kept beside the tests.
enum ReferenceVectors {
    static func url() throws -> URL {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/spearal-java-vectors.json")
        guard FileManager.default.fileExists(atPath: file.path) else { throw LoadError.notFound(file.path) }
        return file
    }

    static func all() throws -> [ReferenceVector] {
        try JSONDecoder().decode([ReferenceVector].self, from: Data(contentsOf: url()))
    }

    static func named(_ name: String) throws -> ReferenceVector {
        guard let vector = try all().first(where: { $0.name == name }) else { throw LoadError.missingVector(name) }
        return vector
    }

    enum LoadError: Error, CustomStringConvertible {
        case notFound(String)
        case missingVector(String)

        var description: String {
            switch self {
            case .notFound(let path):
                return "the reference vectors are not at \(path)"
            case .missingVector(let name):
                return "vector \(name) missing from the reference vectors"
            }
        }
    }
}
