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
                bean.isUnshared = context.marksUnsharedObjects
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
        list.isUnshared = context.marksUnsharedObjects
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
        switch kind {
        case .plain, .classType, .undefinable:
            return nil
        case .date:
            guard let date = child as? Date else { return nil }
            guard date.timeIntervalSince1970.isFinite else {
                throw EncodingError.invalidValue(date, .init(codingPath: codingPath, debugDescription: "A non-finite Date cannot be sent"))
            }
            return .dateTime(SpearalDateTime(date))
        case .data:
            return (child as? Data).map { .byteArray(SpearalBytes([UInt8]($0))) }
        case .decimal:
            guard let decimal = child as? Decimal else { return nil }
            guard decimal.isFinite else {
                throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath, debugDescription: "Decimal NaN cannot be sent"))
            }
            return .bigFloating(decimal.description)
        case .url:
            return (child as? URL).map { .string($0.absoluteString) }
        case .enumeration:
            guard let enumeration = child as? any SpearalEnumeration else { return nil }
            let className = context.classNames.names(of: T.self).remote
            return .enumValue(SpearalEnumConstant(className: className, name: enumeration.rawValue))
        case .dictionary:
            guard let dictionary = child as? any SpearalDictionaryCodable else { return nil }
            return .map(SpearalMap(try dictionary.spearalEntries(encoder: self)))
        }
    }
}
