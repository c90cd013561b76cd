/// Shared state of one `Codable` decoding: class names and the class instances already built
/// from beans, so a bean referenced twice yields one shared instance.
///
/// The type caches are `@exclusivity(unchecked)`: one decoding runs on one thread and never
/// reenters an access to them, and the dynamic checks would cost more than the lookups.
final class SpearalDecodingContext {
    let aliases: SpearalAliasStrategy
    /// Whether ``aliases`` renames any property (otherwise wire names are used as they are).
    let hasPropertyAliases: Bool
    var classNames: SpearalClassNames
    var instances: [ObjectIdentifier: AnyObject] = [:]
    var inProgress: Set<ObjectIdentifier> = []
    @exclusivity(unchecked) private var kinds: [ObjectIdentifier: SpearalTypeKind] = [:]
    @exclusivity(unchecked) private var lastKind: (type: ObjectIdentifier, kind: SpearalTypeKind)?

    init(aliases: SpearalAliasStrategy) {
        self.aliases = aliases
        hasPropertyAliases = aliases.hasPropertyAliases
        classNames = SpearalClassNames(aliases: aliases)
    }

    /// How values of `type` are decoded, looked up once per type (dynamic casts are slow).
    func kind<T>(of type: T.Type) -> SpearalTypeKind {
        let key = ObjectIdentifier(type)
        if let lastKind, lastKind.type == key { return lastKind.kind }
        let kind = kinds[key] ?? SpearalTypeKind(type, decoding: true)
        kinds[key] = kind
        lastKind = (key, kind)
        return kind
    }

    /// The Swift name of `type`, which selects its property aliases.
    func localClassName(of type: Any.Type) -> String {
        classNames.names(of: type).local
    }
}
