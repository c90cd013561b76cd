/// The class names of Swift types, resolved once per type.
struct SpearalClassNames {
    let aliases: SpearalAliasStrategy
    private var cache: [ObjectIdentifier: (local: String, remote: String)] = [:]

    init(aliases: SpearalAliasStrategy) {
        self.aliases = aliases
    }

    /// The local (Swift) and remote (wire) names of `type`.
    mutating func names(of type: Any.Type) -> (local: String, remote: String) {
        let key = ObjectIdentifier(type)
        if let names = cache[key] { return names }
        let local = String(describing: type)
        let remote: String
        if let named = type as? SpearalClassNamed.Type {
            remote = named.spearalClassName
        } else {
            remote = aliases.remoteClassName(forLocal: local)
        }
        cache[key] = (local, remote)
        return (local, remote)
    }
}
