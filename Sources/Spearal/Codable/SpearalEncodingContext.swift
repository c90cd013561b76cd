/// Shared state of one `Codable` encoding: class names and the class instances already turned
/// into beans (so a shared instance becomes one bean, and a cycle a back-reference).
final class SpearalEncodingContext {
    var classNames: SpearalClassNames
    var instances: [ObjectIdentifier: SpearalValue] = [:]
    /// Keeps encoded instances alive so their identifiers stay unique during the encoding.
    var retained: [AnyObject] = []
    private var kinds: [ObjectIdentifier: SpearalTypeKind] = [:]
    /// The property filter, applied while building beans so filtered-out values are never encoded.
    let filter: SpearalPropertyFilter
    private var beans: [ObjectIdentifier: BeanInfo] = [:]
    /// The last property order seen per type and the permutation that sorts it.
    private var orders: [ObjectIdentifier: (names: [String], permutation: [Int])] = [:]

    /// What a keyed container needs to know about the type it encodes, resolved once per type.
    struct BeanInfo {
        let localClass: String
        let remoteClass: String
        /// The remote property names the filter keeps, `nil` when it keeps all. An array: beans
        /// have few properties, and comparing short strings beats hashing them.
        let keptNames: [String]?
    }

    init(aliases: SpearalAliasStrategy, filter: SpearalPropertyFilter) {
        classNames = SpearalClassNames(aliases: aliases)
        self.filter = filter
    }

    /// Sorts `properties` alphabetically (Java order), reusing the permutation found for the
    /// previous bean of `type` when its names came in the same order (every element of a list).
    func javaOrdered(_ properties: [SpearalBean.Property], of type: Any.Type) -> [SpearalBean.Property] {
        let key = ObjectIdentifier(type)
        if let cached = orders[key], cached.names.count == properties.count,
           zip(cached.names, properties).allSatisfy({ $0 == $1.name }) {
            return cached.permutation.compactMap { properties.indices.contains($0) ? properties[$0] : nil }
        }
        let permutation = properties.indices.sorted { SpearalTypeKind.javaOrder(properties[$0].name, properties[$1].name) }
        orders[key] = (properties.map(\.name), permutation)
        return permutation.map { properties[$0] }
    }

    /// The class names and kept properties of beans of `type`.
    func beanInfo(of type: Any.Type) -> BeanInfo {
        let key = ObjectIdentifier(type)
        if let info = beans[key] { return info }
        let names = classNames.names(of: type)
        let info = BeanInfo(localClass: names.local, remoteClass: names.remote,
                            keptNames: keptNames(of: names.remote))
        beans[key] = info
        return info
    }

    /// The remote property names kept for the remote class `className`, `nil` when all are kept.
    func keptNames(of className: String) -> [String]? {
        filter.keptNames(of: className).map { Array($0) }
    }

    /// How values of `type` are encoded, looked up once per type (dynamic casts are slow).
    func kind<T>(of type: T.Type) -> SpearalTypeKind {
        let key = ObjectIdentifier(type)
        if let kind = kinds[key] { return kind }
        let kind = SpearalTypeKind(type)
        kinds[key] = kind
        return kind
    }
}
