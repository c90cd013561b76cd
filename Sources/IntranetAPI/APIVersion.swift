/// A published version of the intranet HTTP API.
///
/// A version, once published, never changes shape: old app builds keep working for years.
/// Clients choose one with the `Accept-Version` header (or `Accept: application/json;v=…`);
/// a request that names none gets ``latest``.
public enum APIVersion: String, Sendable, CaseIterable, Codable, Comparable {
    /// The first version: lists carry each announcement's body.
    case v1_0 = "1.0"
    /// Lists carry only `id` and `title`; details add `createdAt` and `updatedAt`.
    case v2_0 = "2.0"
    /// Publishing: `status`, `publishAt`, `expiresAt`, `pinned`, `pinnedUntil`, `important`,
    /// and (for editors) `audience`; lists put pinned announcements first.
    case v3_0 = "3.0"

    /// The version a request gets when it names none.
    public static let latest: APIVersion = .v3_0

    /// Every version the server answers, as the strings a client sends.
    public static var supported: [String] { allCases.map(\.rawValue) }

    /// Orders versions by their publication.
    public static func < (lhs: APIVersion, rhs: APIVersion) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .v1_0: 1
        case .v2_0: 2
        case .v3_0: 3
        }
    }
}
