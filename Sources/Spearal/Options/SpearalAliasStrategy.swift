/// Maps local (Swift) class and property names to the remote (Java) names on the wire, and back.
///
/// Class aliases map a local type name (`Person`) to its remote name
/// (`org.example.data.Person`). Property aliases rename properties per local class, or for
/// every class with the wildcard class `"*"` — e.g. a Swift `description_` that the server
/// calls `description`. Names without an alias are used as they are.
public struct SpearalAliasStrategy: Hashable, Sendable {
    /// The wildcard class name for property aliases that apply to every class.
    public static let anyClass = "*"

    private var remoteClassNames: [String: String] = [:]
    private var localClassNames: [String: String] = [:]
    private var remotePropertyNames: [String: [String: String]] = [:]
    private var localPropertyNames: [String: [String: String]] = [:]

    /// Creates a strategy.
    /// - Parameter classAliases: remote class names by local class name.
    public init(classAliases: [String: String] = [:]) {
        for (local, remote) in classAliases {
            setClassAlias(local: local, remote: remote)
        }
    }

    /// Sends the local class `local` as `remote`.
    /// - Parameters:
    ///   - local: the Swift type name.
    ///   - remote: the wire class name.
    public mutating func setClassAlias(local: String, remote: String) {
        remoteClassNames[local] = remote
        localClassNames[remote] = local
    }

    /// Renames properties of the local class `className` (or ``anyClass``) on the wire.
    /// - Parameters:
    ///   - aliases: remote property names by local property name, e.g. `["description_": "description"]`.
    ///   - className: the local class name, or `"*"` for every class.
    public mutating func setPropertyAliases(_ aliases: [String: String], forClass className: String) {
        for (local, remote) in aliases {
            remotePropertyNames[className, default: [:]][local] = remote
            localPropertyNames[className, default: [:]][remote] = local
        }
    }

    /// The wire name of the local class `local`.
    /// - Parameter local: the Swift type name.
    public func remoteClassName(forLocal local: String) -> String {
        remoteClassNames[local] ?? local
    }

    /// The local class name of the wire name `remote`.
    /// - Parameter remote: the wire class name.
    public func localClassName(forRemote remote: String) -> String {
        localClassNames[remote] ?? remote
    }

    /// The wire name of property `local` of the local class `className`.
    /// - Parameters:
    ///   - local: the Swift property name.
    ///   - className: the local class name.
    public func remotePropertyName(_ local: String, inClass className: String) -> String {
        remotePropertyNames[className]?[local] ?? remotePropertyNames[Self.anyClass]?[local] ?? local
    }

    /// The local name of wire property `remote` of the local class `className`.
    /// - Parameters:
    ///   - remote: the wire property name.
    ///   - className: the local class name.
    public func localPropertyName(_ remote: String, inClass className: String) -> String {
        localPropertyNames[className]?[remote] ?? localPropertyNames[Self.anyClass]?[remote] ?? remote
    }

    /// Whether any property alias is set (lets the Codable bridge skip lookups when not).
    var hasPropertyAliases: Bool {
        !remotePropertyNames.isEmpty
    }
}
