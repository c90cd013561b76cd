import Foundation

/// The state of one ``SpearalEncoder/encode(_:)`` on the direct-write path: the writer and its
/// tables, plus what is known about each Swift type (names, kept properties, wire order).
///
/// `Encodable` values are walked once and written straight to bytes: each value's containers
/// collect its content (``SpearalPendingValue``), and as soon as its `encode(to:)` returns the
/// content is written in wire order, nested values being encoded at that moment. The bytes are
/// exactly those of writing the value model (``SpearalEncoder/makeValue(_:)``), without
/// building that graph.
///
/// Several hot properties are `@exclusivity(unchecked)`: one encoding runs on one thread and
/// never reenters an access to them, and the dynamic checks cost more than the work they guard.
///
/// One piece, past 300 lines: the per-type tables and the write order share the writer's state,
/// and every method here runs on each value of the hot encoding path.
final class SpearalDirectEncodingContext {
    /// What is known about the beans of one Swift type, resolved once per message.
    final class BeanType {
        let localClass: String
        let remoteClass: String
        /// The remote property names the filter keeps, `nil` when it keeps all. An array: beans
        /// have few properties, and comparing short strings beats hashing them.
        let keptNames: [String]?
        /// The property lists met so far, most recent last.
        @exclusivity(unchecked) var shapes: [Shape] = []

        init(localClass: String, remoteClass: String, keptNames: [String]?) {
            self.localClass = localClass
            self.remoteClass = remoteClass
            self.keptNames = keptNames
        }

        /// The known shape with exactly these property names, in this order.
        func shape(of properties: [SpearalPendingBean.Property]) -> Shape? {
            // Beans of one type nearly always share one shape: try the latest first.
            for shape in shapes.reversed() where shape.matches(properties) {
                return shape
            }
            return nil
        }
    }

    /// One list of property names as a keyed container received them, and how it is sent.
    final class Shape {
        /// The names in the order received (no duplicates).
        let names: [String]
        /// The indexes of `names` in wire order (alphabetical, as spearal-java sends them).
        let order: [Int]
        /// `ClassName#a,b` in wire order.
        let description: String
        /// The description's string-table index once it was sent in this message.
        var descriptionIndex: Int?

        init(className: String, names: [String]) {
            self.names = names
            order = names.indices.sorted { SpearalTypeKind.javaOrder(names[$0], names[$1]) }
            description = className + "#" + order.map { names[$0] }.joined(separator: ",")
        }

        func matches(_ properties: [SpearalPendingBean.Property]) -> Bool {
            guard names.count == properties.count else { return false }
            for index in names.indices where names[index] != properties[index].name {
                return false
            }
            return true
        }
    }

    @exclusivity(unchecked) var writer: SpearalWriter
    let aliases: SpearalAliasStrategy
    /// Whether ``aliases`` renames any property (otherwise property names are used as they are).
    let hasPropertyAliases: Bool
    private let filter: SpearalPropertyFilter
    @exclusivity(unchecked) private var classNames: SpearalClassNames
    @exclusivity(unchecked) private var kinds: [ObjectIdentifier: SpearalTypeKind] = [:]
    @exclusivity(unchecked) private var lastKind: (type: ObjectIdentifier, kind: SpearalTypeKind)?
    @exclusivity(unchecked) private var beanTypes: [ObjectIdentifier: BeanType] = [:]
    @exclusivity(unchecked) private var lastBeanType: (type: ObjectIdentifier, bean: BeanType)?
    /// Class instances whose `encode(to:)` is running or being written, to stop a class that
    /// contains itself without being a bean (which would recurse forever).
    private var inProgress: Set<ObjectIdentifier> = []
    /// The object indexes of the empty beans written for such in-progress instances.
    private var placeholders: [ObjectIdentifier: Int] = [:]
    /// Keeps encoded instances alive so their identifiers stay unique during the encoding.
    private var retained: [AnyObject] = []

    init(aliases: SpearalAliasStrategy, filter: SpearalPropertyFilter) {
        self.aliases = aliases
        hasPropertyAliases = aliases.hasPropertyAliases
        self.filter = filter
        classNames = SpearalClassNames(aliases: aliases)
        writer = SpearalWriter(capacity: 4096)
    }

    // MARK: Types

    /// How values of `type` are encoded, looked up once per type (dynamic casts are slow).
    func kind<T>(of type: T.Type) -> SpearalTypeKind {
        let key = ObjectIdentifier(type)
        if let lastKind, lastKind.type == key { return lastKind.kind }
        let kind = kinds[key] ?? SpearalTypeKind(type)
        kinds[key] = kind
        lastKind = (key, kind)
        return kind
    }

    /// The names, kept properties and known shapes of the beans of `type`.
    func beanType(of type: Any.Type) -> BeanType {
        let key = ObjectIdentifier(type)
        if let lastBeanType, lastBeanType.type == key { return lastBeanType.bean }
        let bean: BeanType
        if let known = beanTypes[key] {
            bean = known
        } else {
            let names = classNames.names(of: type)
            bean = BeanType(localClass: names.local, remoteClass: names.remote, keptNames: keptNames(of: names.remote))
            beanTypes[key] = bean
        }
        lastBeanType = (key, bean)
        return bean
    }

    /// The remote property names kept for the remote class `className`, `nil` when all are kept.
    func keptNames(of className: String) -> [String]? {
        filter.keptNames(of: className).map { Array($0) }
    }

    // MARK: Collecting

    /// What a container keeps for `value`: leaves at once, anything else to encode when written.
    /// - Parameters:
    ///   - value: the value given to the container.
    ///   - element: where `value` sits below the container's path.
    ///   - encoder: the container's encoder.
    func pending<T: Encodable>(_ value: T, at element: SpearalPathElement?, in encoder: SpearalDirectEncoder) throws -> SpearalPendingValue {
        try leafValue(value, codingPath: encoder.codingPath) ?? .encodable(value, at: element)
    }

    /// The most common leaf types, recognized by comparing types: in unspecialized generic code
    /// that is far cheaper than a dynamic cast or a nested `encode(to:)`.
    /// - Returns: `nil` for other types.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Date`.
    func leafValue<T>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> SpearalPendingValue? {
        if let string = exactly(value, String.self) { return .string(string) }
        if let date = exactly(value, Date.self) {
            guard date.timeIntervalSince1970.isFinite else { throw SpearalSpecialValue.invalidDate(date, codingPath: codingPath()) }
            return .date(date)
        }
        if let integer = exactly(value, Int.self) { return .integral(integer) }
        if let flag = exactly(value, Bool.self) { return .bool(flag) }
        if let double = exactly(value, Double.self) { return .floating(double) }
        return nil
    }

    /// `value` as `U` when `T` is `U` (a metadata comparison, not a dynamic cast).
    @inline(__always)
    private func exactly<T, U>(_ value: T, _ type: U.Type) -> U? {
        T.self == U.self ? unsafeBitCast(value, to: U.self) : nil
    }

    /// The value-model form of a map key that is not a leaf, to sort the entries exactly as the
    /// value-model encoder does (only string and integral keys are ordered).
    func sortValue<K: Encodable>(of key: K) throws -> SpearalValue? {
        let value = try SpearalEncoder(propertyFilter: filter, aliasStrategy: aliases).makeValue(key)
        defer { value.dismantle() }
        switch value {
        case .string, .integral: return value
        default: return nil
        }
    }

    // MARK: Writing

    /// Encodes `value` and writes it.
    /// - Parameters:
    ///   - value: the value to write.
    ///   - kind: the kind of `T` when the caller knows it (the elements of an array).
    ///   - parent: the encoder of the enclosing value (`nil` at the top).
    ///   - element: where `value` sits below `parent`.
    func write<T: Encodable>(_ value: T, kind: SpearalTypeKind? = nil, parent: SpearalDirectEncoder?,
                             at element: SpearalPathElement?) throws {
        if let leaf = try leafValue(value, codingPath: parent?.codingPath ?? []) {
            return try writeLeaf(leaf)
        }
        let kind = kind ?? self.kind(of: T.self)
        switch kind {
        case .plain, .undefinable:
            break
        case .classType:
            return try writeObject(value, parent: parent, at: element)
        case .array:
            guard let array = value as? any SpearalArrayEncodable else { break }
            return try array.spearalWrite(to: self, encoder: encoder(for: value, parent: parent, at: element))
        case .dictionary:
            guard let dictionary = value as? any SpearalDictionaryCodable else { break }
            return try dictionary.spearalWrite(to: self, parent: parent)
        case .data:
            guard let data = value as? Data else { break }
            return writeByteArray(data)
        case .date, .decimal, .url, .enumeration:
            let special = try SpearalSpecialValue.make(value, kind: kind, codingPath: parent?.codingPath ?? []) {
                classNames.names(of: T.self).remote
            }
            guard let special else { break }
            return try writer.write(special)
        }
        let encoder = encoder(for: value, parent: parent, at: element)
        try value.encode(to: encoder)
        try writeContent(of: encoder, identity: nil)
    }

    /// Writes a BYTE_ARRAY; each `Data` is a new object (no identity to share).
    private func writeByteArray(_ data: Data) {
        writer.countUnsharedObject()
        data.withUnsafeBytes { writer.writeByteArrayContent($0) }
    }

    private func encoder<T>(for value: T, parent: SpearalDirectEncoder?, at element: SpearalPathElement?) -> SpearalDirectEncoder {
        SpearalDirectEncoder(context: self, parent: parent, at: element, type: T.self)
    }

    /// Writes a class instance: the first time as a bean registered by identity, then as a
    /// reference to it (shared instances, cycles).
    private func writeObject<T: Encodable>(_ value: T, parent: SpearalDirectEncoder?, at element: SpearalPathElement?) throws {
        let object = value as AnyObject
        let identifier = ObjectIdentifier(object)
        if let index = writer.objectIndex(of: identifier) {
            return writer.writeObjectReference(index, base: SpearalTypeByte.bean)
        }
        guard !inProgress.contains(identifier) else {
            // Only an instance that is not a bean (a class encoding itself in a single-value or
            // unkeyed container) gets here: like the value model, send an empty bean in its place.
            return writePlaceholder(for: identifier, className: beanType(of: T.self).remoteClass)
        }
        retained.append(object)
        inProgress.insert(identifier)
        defer { inProgress.remove(identifier) }
        let encoder = encoder(for: value, parent: parent, at: element)
        try value.encode(to: encoder)
        try writeContent(of: encoder, identity: identifier)
    }

    private func writePlaceholder(for identifier: ObjectIdentifier, className: String) {
        if let index = placeholders[identifier] {
            return writer.writeObjectReference(index, base: SpearalTypeByte.bean)
        }
        placeholders[identifier] = writer.objectCount
        writer.countUnsharedObject()
        writer.writeStringLike(className + "#", base: SpearalTypeByte.bean)
    }

    /// Writes what `encoder` collected; `identity` registers a class instance's bean.
    func writeContent(of encoder: SpearalDirectEncoder, identity: ObjectIdentifier?) throws {
        switch encoder.content {
        case .empty:
            let bean = beanType(of: encoder.type)
            try writeBean(SpearalPendingBean(className: bean.remoteClass, beanType: bean), owner: encoder, identity: identity)
        case .single(let value):
            try write(value, owner: encoder)
        case .bean(let bean):
            try writeBean(bean, owner: encoder, identity: identity)
        case .list(let list):
            try writeList(list, owner: encoder)
        }
    }

    /// Writes a collected value; `owner` is the encoder of the container that collected it.
    func write(_ value: SpearalPendingValue, owner: SpearalDirectEncoder) throws {
        switch value {
        case .encodable(let nested, let element):
            try write(nested, parent: owner, at: element)
        case .bean(let bean, let element):
            try writeBean(bean, owner: element.map { owner.nested(at: $0) } ?? owner, identity: nil)
        case .list(let list, let element):
            try writeList(list, owner: element.map { owner.nested(at: $0) } ?? owner)
        default:
            try writeLeaf(value)
        }
    }

    /// Writes a collected scalar.
    private func writeLeaf(_ value: SpearalPendingValue) throws {
        switch value {
        case .null: writer.writeNull()
        case .bool(let flag): writer.writeBool(flag)
        case .integral(let integer): writer.writeIntegral(integer)
        case .floating(let double): writer.writeFloating(double)
        case .string(let string): writer.writeString(string)
        case .date(let date): try writer.writeDateTime(SpearalDateTime(date))
        case .other(let scalar): try writer.write(scalar)
        case .encodable, .bean, .list: preconditionFailure("not a leaf: \(value)")
        }
    }

    private func writeList(_ list: SpearalPendingList, owner: SpearalDirectEncoder) throws {
        writer.countUnsharedObject()
        writer.writeTypeAndCount(SpearalTypeByte.collection, list.elements.count)
        for element in list.elements {
            try write(element, owner: owner)
        }
    }

    /// Writes a bean: object index, class description, then the properties in wire order.
    private func writeBean(_ bean: SpearalPendingBean, owner: SpearalDirectEncoder, identity: ObjectIdentifier?) throws {
        if let identity {
            writer.register(identity)
        } else {
            writer.countUnsharedObject()
        }
        let order = writeDescription(of: bean)
        let properties = bean.properties
        for index in order {
            try write(properties[index].value, owner: owner)
        }
    }

    /// Writes the class description of `bean` (a string-table reference once sent) and returns
    /// the wire order of its properties, both cached per type and property list.
    private func writeDescription(of bean: SpearalPendingBean) -> [Int] {
        let shape: Shape
        if let known = bean.beanType?.shape(of: bean.properties) {
            shape = known
        } else {
            bean.removeDuplicateNames()
            shape = Shape(className: bean.className, names: bean.properties.map(\.name))
            bean.beanType?.shapes.append(shape)
        }
        if let index = shape.descriptionIndex {
            writer.writeTypeAndCount(SpearalTypeByte.bean | SpearalTypeByte.stringReference, index)
        } else {
            shape.descriptionIndex = writer.writeStringLike(shape.description, base: SpearalTypeByte.bean)
        }
        return shape.order
    }

    /// Hands the message over as `Data`.
    func takeData() -> Data {
        writer.takeData()
    }
}
