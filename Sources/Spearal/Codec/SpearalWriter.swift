/// Writes one ``SpearalValue`` as Spearal bytes, keeping the message's string and object tables.
///
/// Encoding rules follow spearal-java so the bytes are identical (see FORMAT.md section 3).
struct SpearalWriter {
    private(set) var bytes: [UInt8] = []
    private var strings: [SpearalStringKey: Int] = [:]
    /// Bean descriptions already built, by class name, so repeated beans do not rebuild them.
    private var descriptions: [String: [(names: [String], description: String)]] = [:]
    /// The last bean description written and its string-table index.
    private var lastDescription: (className: String, names: [String], index: Int)?
    private var objects: [ObjectIdentifier: Int] = [:]
    /// The number of objects sent so far (the next object index).
    private var objectCount = 0
    private let filter: SpearalPropertyFilter

    init(filter: SpearalPropertyFilter = SpearalPropertyFilter(), capacity: Int = 256) {
        self.filter = filter
        bytes.reserveCapacity(capacity)
        strings.reserveCapacity(64)
        objects.reserveCapacity(64)
    }

    mutating func write(_ value: SpearalValue) throws(SpearalError) {
        switch value {
        case .null: bytes.append(SpearalTypeByte.null)
        case .bool(let flag): bytes.append(flag ? SpearalTypeByte.true : SpearalTypeByte.false)
        case .integral(let integer): writeIntegral(integer)
        case .bigIntegral(let text): try writeBigNumber(SpearalBigNumberText.exponentized(text), base: SpearalTypeByte.bigIntegral)
        case .floating(let double): writeFloating(double)
        case .bigFloating(let text): try writeBigNumber(text, base: SpearalTypeByte.bigFloating)
        case .string(let string): writeStringLike(string, base: SpearalTypeByte.string)
        case .byteArray(let array): writeByteArray(array)
        case .dateTime(let dateTime): try writeDateTime(dateTime)
        case .collection(let list): try writeCollection(list)
        case .map(let map): try writeMap(map)
        case .enumValue(let constant):
            writeStringLike(constant.className, base: SpearalTypeByte.enumValue)
            writeStringLike(constant.name, base: SpearalTypeByte.string)
        case .classValue(let name): writeStringLike(name, base: SpearalTypeByte.classValue)
        case .bean(let bean): try writeBean(bean)
        }
    }

    /// Appends already-encoded bytes (used by the date/time extension).
    mutating func appendRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Writes `value` unsigned, big-endian, in `length0 + 1` bytes.
    private mutating func writeUnsigned(_ value: UInt64, length0: Int) {
        var shift = length0 * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// Writes a type byte carrying length0 in its two low bits, then the count or index.
    private mutating func writeTypeAndCount(_ type: UInt8, _ count: Int) {
        let value = UInt64(count)
        let length0 = SpearalTypeByte.length0(of: value)
        bytes.append(type | UInt8(length0))
        writeUnsigned(value, length0: length0)
    }

    private mutating func writeIntegral(_ value: Int) {
        // Int.min has no positive magnitude: like Java, send its 8 bytes without the sign flag.
        let negative = value < 0 && value != Int.min
        let magnitude = value == Int.min ? UInt64(bitPattern: Int64(value)) : UInt64(value.magnitude)
        let length0 = SpearalTypeByte.length0(of: magnitude)
        bytes.append(SpearalTypeByte.integral | (negative ? 0x08 : 0) | UInt8(length0))
        writeUnsigned(magnitude, length0: length0)
    }

    private mutating func writeFloating(_ value: Double) {
        switch SpearalFloatingForm(value) {
        case .integral(let integer):
            writeIntegral(integer)
        case .compact(let negative, let magnitude):
            let length0 = SpearalTypeByte.length0(of: magnitude)
            bytes.append(SpearalTypeByte.floating | 0x08 | (negative ? 0x04 : 0) | UInt8(length0))
            writeUnsigned(magnitude, length0: length0)
        case .raw:
            bytes.append(SpearalTypeByte.floating)
            writeUnsigned(value.bitPattern, length0: 7)
        }
    }

    /// Writes a string-table entry (STRING, ENUM class, CLASS, bean description) with base type `base`.
    /// - Returns: the entry's string-table index (`nil` for the empty string, which has none).
    @discardableResult
    private mutating func writeStringLike(_ string: String, base: UInt8) -> Int? {
        guard !string.isEmpty else {
            bytes.append(base)
            bytes.append(0)
            return nil
        }
        let key = SpearalStringKey(string)
        if let index = strings[key] {
            writeTypeAndCount(base | SpearalTypeByte.stringReference, index)
            return index
        }
        let index = strings.count
        strings[key] = index
        let utf8 = string.utf8
        writeTypeAndCount(base, utf8.count)
        bytes.append(contentsOf: utf8)
        return index
    }

    private mutating func writeBigNumber(_ text: String, base: UInt8) throws(SpearalError) {
        let key = SpearalStringKey(text)
        if let index = strings[key] {
            writeTypeAndCount(base | SpearalTypeByte.stringReference, index)
            return
        }
        let nibbles = try SpearalBigNumberText.nibbles(of: text)
        strings[key] = strings.count
        writeTypeAndCount(base, nibbles.count)
        var index = 0
        while index < nibbles.count {
            let high = nibbles[index] << 4
            let low = index + 1 < nibbles.count ? nibbles[index + 1] : 0
            bytes.append(high | low)
            index += 2
        }
    }

    /// Registers `object` in the object table, or writes a reference and returns `false` if already sent.
    private mutating func registerObject(_ object: AnyObject, base: UInt8, isUnshared: Bool = false) -> Bool {
        defer { objectCount += 1 }
        // An object known to appear once only takes an index; nothing can refer back to it.
        guard !isUnshared else { return true }
        let identifier = ObjectIdentifier(object)
        if let index = objects[identifier] {
            writeTypeAndCount(base | SpearalTypeByte.objectReference, index)
            objectCount -= 1
            return false
        }
        objects[identifier] = objectCount
        return true
    }

    private mutating func writeByteArray(_ array: SpearalBytes) {
        guard registerObject(array, base: SpearalTypeByte.byteArray) else { return }
        writeTypeAndCount(SpearalTypeByte.byteArray, array.bytes.count)
        bytes.append(contentsOf: array.bytes)
    }

    private mutating func writeCollection(_ list: SpearalList) throws(SpearalError) {
        guard registerObject(list, base: SpearalTypeByte.collection, isUnshared: list.isUnshared) else { return }
        writeTypeAndCount(SpearalTypeByte.collection, list.elements.count)
        for element in list.elements {
            try write(element)
        }
    }

    private mutating func writeMap(_ map: SpearalMap) throws(SpearalError) {
        guard registerObject(map, base: SpearalTypeByte.map) else { return }
        writeTypeAndCount(SpearalTypeByte.map, map.entries.count)
        for entry in map.entries {
            try write(entry.key)
            try write(entry.value)
        }
    }

    private mutating func writeBean(_ bean: SpearalBean) throws(SpearalError) {
        guard registerObject(bean, base: SpearalTypeByte.bean, isUnshared: bean.isUnshared) else { return }
        let properties = filter.keptProperties(of: bean)
        if let last = lastDescription, last.className == bean.className, last.names.count == properties.count,
           zip(last.names, properties).allSatisfy({ $0 == $1.name }) {
            // Same shape as the previous bean (a list of DTOs): its description is already in the table.
            writeTypeAndCount(SpearalTypeByte.bean | SpearalTypeByte.stringReference, last.index)
        } else if let index = writeStringLike(description(of: bean.className, properties), base: SpearalTypeByte.bean) {
            lastDescription = (bean.className, properties.map(\.name), index)
        }
        for property in properties {
            try write(property.value)
        }
    }

    /// The class description `className#a,b`, reusing the text built for an earlier identical bean.
    private mutating func description(of className: String, _ properties: [SpearalBean.Property]) -> String {
        let cached = descriptions[className] ?? []
        for entry in cached where entry.names.count == properties.count
            && zip(entry.names, properties).allSatisfy({ $0 == $1.name }) {
            return entry.description
        }
        let names = properties.map(\.name)
        let description = className + "#" + names.joined(separator: ",")
        descriptions[className, default: []].append((names, description))
        return description
    }
}
