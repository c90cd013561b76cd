import Foundation
import Spearal

/// One golden vector produced by spearal-java (`shared/spearal/vectors.json`).
struct ReferenceVector: Decodable, Sendable, CustomStringConvertible {
    let name: String
    let description: String
    let hex: String

    var bytes: [UInt8] { Hex.bytes(hex) }
}

/// Loads the vectors from the `shared/spearal` folder found beside an ancestor of this file, so
/// the tests run both in the standalone package and once copied into the main package.
enum ReferenceVectors {
    static func url() throws -> URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("shared/spearal/vectors.json")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw LoadError.notFound(start: #filePath)
    }

    static func all() throws -> [ReferenceVector] {
        try JSONDecoder().decode([ReferenceVector].self, from: Data(contentsOf: url()))
    }

    static func named(_ name: String) throws -> ReferenceVector {
        guard let vector = try all().first(where: { $0.name == name }) else { throw LoadError.missingVector(name) }
        return vector
    }

    enum LoadError: Error, CustomStringConvertible {
        case notFound(start: String)
        case missingVector(String)

        var description: String {
            switch self {
            case .notFound(let start):
                return "shared/spearal/vectors.json not found in any ancestor directory of \(start)"
            case .missingVector(let name):
                return "vector \(name) missing from shared/spearal/vectors.json"
            }
        }
    }
}
