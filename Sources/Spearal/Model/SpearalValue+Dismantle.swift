extension SpearalValue {
    /// Empties every collection, map and bean reachable from this value, so that a graph with
    /// cycles can be freed.
    ///
    /// Objects of the value model hold their children strongly, so a cyclic graph (a bean that
    /// is its own `worstEnemy`'s `worstEnemy`, a list containing itself) is a reference cycle
    /// that Swift does not free on its own. Untrusted input can contain such cycles: when you
    /// are done with a graph from ``SpearalDecoder/decodeValue(from:)`` or
    /// ``SpearalEncoder/makeValue(_:)``, call this to release it. The `Codable` entry points
    /// (``SpearalDecoder/decode(_:from:)``, ``SpearalEncoder/encode(_:)``) do it themselves.
    ///
    /// After the call, the objects are empty; byte arrays keep their bytes (they have no children).
    public func dismantle() {
        var pending: [SpearalValue] = [self]
        var visited: Set<ObjectIdentifier> = []
        while let value = pending.popLast() {
            guard let object = value.object, visited.insert(ObjectIdentifier(object)).inserted else { continue }
            switch value {
            case .collection(let list):
                pending.append(contentsOf: list.elements)
                list.elements = []
            case .map(let map):
                for entry in map.entries {
                    pending.append(entry.key)
                    pending.append(entry.value)
                }
                map.entries = []
            case .bean(let bean):
                pending.append(contentsOf: bean.properties.map(\.value))
                bean.properties = []
            default:
                break
            }
        }
    }
}
