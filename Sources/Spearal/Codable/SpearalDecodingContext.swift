/// Shared state of one `Codable` decoding: class names and the class instances already built
/// from beans, so a bean referenced twice yields one shared instance.
final class SpearalDecodingContext {
    var classNames: SpearalClassNames
    var instances: [ObjectIdentifier: AnyObject] = [:]
    var inProgress: Set<ObjectIdentifier> = []
    private var kinds: [ObjectIdentifier: SpearalTypeKind] = [:]

    init(aliases: SpearalAliasStrategy) {
        classNames = SpearalClassNames(aliases: aliases)
    }

    /// How values of `type` are decoded, looked up once per type (dynamic casts are slow).
    func kind<T>(of type: T.Type) -> SpearalTypeKind {
        let key = ObjectIdentifier(type)
        if let kind = kinds[key] { return kind }
        let kind = SpearalTypeKind(type, decoding: true)
        kinds[key] = kind
        return kind
    }
}
