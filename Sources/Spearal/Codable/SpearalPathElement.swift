/// One step of a coding path, turned into a `CodingKey` only when a path is asked for (errors,
/// custom `encode(to:)` / `init(from:)` code), so that walking an array does not build an
/// `"Index n"` key per element.
enum SpearalPathElement {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): return key
        case .index(let index): return SpearalIndexKey(intValue: index)
        }
    }
}
