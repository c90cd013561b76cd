/// The encodings the API speaks (docs/api.md, "Formats: JSON and Spearal"): JSON, the default, and Spearal, a compact binary
/// encoding of the same objects (classes named by ``WireClass``).
///
/// Errors are `application/problem+json` in every format, so any client can read them.
public enum WireFormat: String, Sendable, CaseIterable, Codable {
    /// `application/json`.
    case json
    /// `application/spearal`.
    case spearal

    /// The media type of bodies in this format.
    public var mediaType: String {
        switch self {
        case .json: MediaType.json
        case .spearal: MediaType.spearal
        }
    }
}
