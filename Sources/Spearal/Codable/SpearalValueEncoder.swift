import Foundation

/// The `Encoder` that turns one `Encodable` value into a ``SpearalValue``.
final class SpearalValueEncoder: Encoder {
    let context: SpearalEncodingContext
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The type being encoded, which names the bean if it asks for a keyed container.
    let type: Any.Type
    /// The result: set by the first container request.
    var value: SpearalValue?
    /// A bean created before `encode(to:)` for a class instance, so cycles can refer to it.
    var presetBean: SpearalBean?

    init(context: SpearalEncodingContext, codingPath: [any CodingKey], type: Any.Type) {
        self.context = context
        self.codingPath = codingPath
        self.type = type
    }

    func container<Key: CodingKey>(keyedBy keyType: Key.Type) -> KeyedEncodingContainer<Key> {
        let info = context.beanInfo(of: type)
        let bean: SpearalBean
        if case .bean(let existing)? = value {
            bean = existing
        } else {
            if let presetBean {
                bean = presetBean
            } else {
                bean = SpearalBean(className: info.remoteClass)
            }
            value = .bean(bean)
        }
        // A nested keyed container fills a nameless bean of its own: the type's filter does not apply.
        let keptNames = bean.className == info.remoteClass ? info.keptNames : context.keptNames(of: bean.className)
        let container = SpearalKeyedEncodingContainer<Key>(encoder: self, bean: bean, localClass: info.localClass,
                                                           keptNames: keptNames)
        return KeyedEncodingContainer(container)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .collection(let list)? = value {
            return SpearalUnkeyedEncodingContainer(encoder: self, list: list)
        }
        let list = SpearalList()
        value = .collection(list)
        return SpearalUnkeyedEncodingContainer(encoder: self, list: list)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SpearalSingleValueEncodingContainer(encoder: self)
    }

    /// Encodes a nested value at `key` (nil for unkeyed positions and the root).
    func encodeChild<T: Encodable>(_ child: T, at key: (any CodingKey)?, kind: SpearalTypeKind? = nil) throws -> SpearalValue {
        let kind = kind ?? context.kind(of: T.self)
        if let special = try encodeSpecial(child, kind: kind) { return special }
        let path = key.map { codingPath + [$0] } ?? codingPath
        let encoder = SpearalValueEncoder(context: context, codingPath: path, type: T.self)
        guard kind == .classType else {
            try child.encode(to: encoder)
            return encoder.finish()
        }
        // A class instance: register its bean first so that a cycle back to it becomes a reference.
        let object = child as AnyObject
        let identifier = ObjectIdentifier(object)
        if let existing = context.instances[identifier] { return existing }
        let bean = SpearalBean(className: context.beanInfo(of: T.self).remoteClass)
        context.instances[identifier] = .bean(bean)
        context.retained.append(object)
        encoder.presetBean = bean
        try child.encode(to: encoder)
        let result = encoder.finish()
        context.instances[identifier] = result
        return result
    }

    /// The encoded value, with bean properties in spearal-java order (alphabetical by UTF-16 units).
    func finish() -> SpearalValue {
        guard let value else { return .bean(presetBean ?? SpearalBean(className: context.beanInfo(of: type).remoteClass)) }
        if case .bean(let bean) = value, bean.properties.count > 1 {
            bean.properties = context.javaOrdered(bean.properties, of: type)
        }
        return value
    }

    /// Values with a dedicated format type: dates, data, decimals, URLs, enums, dictionaries.
    private func encodeSpecial<T: Encodable>(_ child: T, kind: SpearalTypeKind) throws -> SpearalValue? {
        if kind == .dictionary {
            guard let dictionary = child as? any SpearalDictionaryCodable else { return nil }
            return .map(SpearalMap(try dictionary.spearalEntries(encoder: self)))
        }
        return try SpearalSpecialValue.make(child, kind: kind, codingPath: codingPath) {
            context.classNames.names(of: T.self).remote
        }
    }
}
