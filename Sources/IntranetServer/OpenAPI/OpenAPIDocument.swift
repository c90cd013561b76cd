import Foundation

/// The OpenAPI 3.1 description of the API, kept in the repository as `Resources/openapi.json`.
enum OpenAPIDocument {
    /// The document's bytes, read once.
    static func data() throws -> Data {
        try loaded.get()
    }

    private static let loaded: Result<Data, any Error> = Result {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}
