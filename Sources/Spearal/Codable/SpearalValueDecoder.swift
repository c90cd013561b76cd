import Foundation

/// The `Decoder` that builds one `Decodable` value from a ``SpearalValue``.
final class SpearalValueDecoder: Decoder {
    let context: SpearalDecodingContext
    let value: SpearalValue
    /// The decoder of the enclosing value, whose path this one extends.
    private let parent: SpearalValueDecoder?
    private let pathElement: SpearalPathElement?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The type being decoded, whose local name selects property aliases.
    let type: Any.Type

    init(context: SpearalDecodingContext, value: SpearalValue, parent: SpearalValueDecoder?, at pathElement: SpearalPathElement?,
         type: Any.Type) {
        self.context = context
        self.value = value
        self.parent = parent
        self.pathElement = pathElement
        self.type = type
    }

    /// Built on demand: most values never ask for their path.
    var codingPath: [any CodingKey] {
        var path = parent?.codingPath ?? []
        if let pathElement { path.append(pathElement.codingKey) }
        return path
    }

    /// The path of a child at `element` (this decoder's path when `nil`).
    func codingPath(at element: SpearalPathElement?) -> [any CodingKey] {
        guard let element else { return codingPath }
        return codingPath + [element.codingKey]
    }

    /// A decoder for a nested container's value at `element`, decoding the same type.
    func nested(_ value: SpearalValue, at element: SpearalPathElement) -> SpearalValueDecoder {
        SpearalValueDecoder(context: context, value: value, parent: self, at: element, type: type)
    }

    func container<Key: CodingKey>(keyedBy keyType: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let properties: [SpearalBean.Property]
        switch value {
        case .bean(let bean):
            properties = bean.properties
        case .map(let map):
            properties = map.entries.compactMap { entry in
                switch entry.key {
                case .string(let name): return (name, entry.value)
                case .integral(let number): return (String(number), entry.value)
                default: return nil
                }
            }
        default:
            throw mismatch(KeyedDecodingContainer<Key>.self, "a bean or a map")
        }
        return KeyedDecodingContainer(SpearalKeyedDecodingContainer<Key>(decoder: self, properties: properties))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .collection(let list) = value else { throw mismatch([SpearalValue].self, "a collection") }
        return SpearalUnkeyedDecodingContainer(decoder: self, elements: list.elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SpearalSingleValueDecodingContainer(decoder: self)
    }

    /// A type-mismatch error at this decoder's path.
    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        Self.mismatch(type, expected, found: value, at: codingPath)
    }

    /// A type-mismatch error for `value` at `path`.
    static func mismatch(_ type: Any.Type, _ expected: String, found value: SpearalValue, at path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected \(expected), found \(kind(of: value))"))
    }

    /// Decodes a nested value found at `element` (`nil`: this decoder's own value, same path).
    func decodeChild<T: Decodable>(_ type: T.Type, from child: SpearalValue, at element: SpearalPathElement?) throws -> T {
        if let leaf = try Self.unboxLeaf(T.self, from: child, at: codingPath(at: element)) { return leaf }
        let decoder = SpearalValueDecoder(context: context, value: child, parent: self, at: element, type: T.self)
        let kind = context.kind(of: T.self)
        if let special = try decoder.decodeSpecial(T.self, kind: kind) { return special }
        guard kind == .classType, case .bean(let bean) = child else {
            return try T(from: decoder)
        }
        // A bean decoded before as this class yields the same instance (shared identity).
        let identifier = ObjectIdentifier(bean)
        if let existing = context.instances[identifier] as? T { return existing }
        guard !context.inProgress.contains(identifier) else {
            throw SpearalError.cyclicReference(className: bean.className)
        }
        context.inProgress.insert(identifier)
        defer { context.inProgress.remove(identifier) }
        let instance = try T(from: decoder)
        context.instances[identifier] = instance as AnyObject
        return instance
    }

    /// A short name of the kind of `value`, for error messages.
    static func kind(of value: SpearalValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integral: return "an integral"
        case .bigIntegral: return "a big integral"
        case .floating: return "a floating"
        case .bigFloating: return "a big floating"
        case .string: return "a string"
        case .byteArray: return "a byte array"
        case .dateTime: return "a date/time"
        case .collection: return "a collection"
        case .map: return "a map"
        case .enumValue: return "an enum"
        case .classValue: return "a class"
        case .bean(let bean): return "a bean \(bean.className)"
        }
    }
}
