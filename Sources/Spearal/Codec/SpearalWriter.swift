import Foundation

/// Writes Spearal bytes, keeping the message's string and object tables.
///
/// ``write(_:)`` writes a whole ``SpearalValue`` graph; the `Codable` encoder instead drives the
/// lower-level methods (scalars, headers, descriptions, object indexes) as it walks the Swift
/// values. Encoding rules follow spearal-java so the bytes are identical (see docs/spearal.md section 3).
///
/// Noncopyable because it owns its output buffer.
struct SpearalWriter: ~Copyable {
    /// The bytes written so far (not private: the date/time extension appends to it).
    var output: SpearalByteBuffer
    private var strings = SpearalStringTable()
    /// Bean descriptions already built, by class name, so repeated beans do not rebuild them.
    private var descriptions: [String: [(names: [String], description: String)]] = [:]
    /// The last bean description written and its string-table index.
    private var lastDescription: (className: String, names: [String], index: Int)?
    private var objects: [ObjectIdentifier: Int] = [:]
    /// The number of objects sent so far (the next object index).
    private(set) var objectCount = 0
    private let filter: SpearalPropertyFilter

    init(filter: SpearalPropertyFilter = SpearalPropertyFilter(), capacity: Int = 256) {
        self.filter = filter
        output = SpearalByteBuffer(capacity: capacity)
        objects.reserveCapacity(64)
    }

    /// Hands the written bytes over to a `Data` without copying them.
    mutating func takeData() -> Data {
        output.takeData()
    }

    mutating func write(_ value: SpearalValue) throws(SpearalError) {
        switch value {
        case .null: output.append(SpearalTypeByte.null)
        case .bool(let flag): writeBool(flag)
        case .integral(let integer): writeIntegral(integer)
        case .bigIntegral(let text): try writeBigNumber(SpearalBigNumberText.exponentized(text), base: SpearalTypeByte.bigIntegral)
        case .floating(let double): writeFloating(double)
        case .bigFloating(let text): try writeBigNumber(text, base: SpearalTypeByte.bigFloating)
        case .string(let string): writeString(string)
        case .byteArray(let array): writeByteArray(array)
        case .dateTime(let dateTime): try writeDateTime(dateTime)
        case .collection(let list): try writeCollection(list)
        case .map(let map): try writeMap(map)
        case .enumValue(let constant): writeEnum(constant)
        case .classValue(let name): writeStringLike(name, base: SpearalTypeByte.classValue)
        case .bean(let bean): try writeBean(bean)
        }
    }

    // MARK: Scalars

    mutating func writeNull() {
        output.append(SpearalTypeByte.null)
    }

    mutating func writeBool(_ flag: Bool) {
        output.append(flag ? SpearalTypeByte.true : SpearalTypeByte.false)
    }

    /// Writes a type byte carrying length0 in its two low bits, then the count or index.
    mutating func writeTypeAndCount(_ type: UInt8, _ count: Int) {
        let value = UInt64(count)
        let length0 = SpearalTypeByte.length0(of: value)
        output.append(type | UInt8(length0))
        output.appendUnsigned(value, length0: length0)
    }

    mutating func writeIntegral(_ value: Int) {
        // Int.min has no positive magnitude: like Java, send its 8 bytes without the sign flag.
        let negative = value < 0 && value != Int.min
        let magnitude = value == Int.min ? UInt64(bitPattern: Int64(value)) : UInt64(value.magnitude)
        let length0 = SpearalTypeByte.length0(of: magnitude)
        output.append(SpearalTypeByte.integral | (negative ? 0x08 : 0) | UInt8(length0))
        output.appendUnsigned(magnitude, length0: length0)
    }

    mutating func writeFloating(_ value: Double) {
        switch SpearalFloatingForm(value) {
        case .integral(let integer):
            writeIntegral(integer)
        case .compact(let negative, let magnitude):
            let length0 = SpearalTypeByte.length0(of: magnitude)
            output.append(SpearalTypeByte.floating | 0x08 | (negative ? 0x04 : 0) | UInt8(length0))
            output.appendUnsigned(magnitude, length0: length0)
        case .raw:
            output.append(SpearalTypeByte.floating)
            output.appendUnsigned(value.bitPattern, length0: 7)
        }
    }

    mutating func writeString(_ string: String) {
        writeStringLike(string, base: SpearalTypeByte.string)
    }

    /// Writes an ENUM: the class name, then the constant name as a STRING.
    mutating func writeEnum(_ constant: SpearalEnumConstant) {
        writeStringLike(constant.className, base: SpearalTypeByte.enumValue)
        writeStringLike(constant.name, base: SpearalTypeByte.string)
    }

    /// Writes a string-table entry (STRING, ENUM class, CLASS, bean description) with base type `base`.
    /// - Returns: the entry's string-table index (`nil` for the empty string, which has none).
    @discardableResult
    mutating func writeStringLike(_ string: String, base: UInt8) -> Int? {
        guard !string.isEmpty else {
            output.append(base)
            output.append(0)
            return nil
        }
        let (index, isKnown) = strings.index(of: string)
        if isKnown {
            writeTypeAndCount(base | SpearalTypeByte.stringReference, index)
            return index
        }
        writeTypeAndCount(base, string.utf8.count)
        output.appendUTF8(of: string)
        return index
    }

    private mutating func writeBigNumber(_ text: String, base: UInt8) throws(SpearalError) {
        if let index = strings.knownIndex(of: text) {
            writeTypeAndCount(base | SpearalTypeByte.stringReference, index)
            return
        }
        // Validated before the text takes a table index: an invalid text throws, adding nothing.
        let nibbles = try SpearalBigNumberText.nibbles(of: text)
        strings.index(of: text)
        writeTypeAndCount(base, nibbles.count)
        var index = 0
        while index < nibbles.count {
            let high = nibbles[index] << 4
            let low = index + 1 < nibbles.count ? nibbles[index + 1] : 0
            output.append(high | low)
            index += 2
        }
    }

    // MARK: Objects

    /// The object index of an object registered with ``register(_:)``, if it was sent already.
    func objectIndex(of identifier: ObjectIdentifier) -> Int? {
        objects[identifier]
    }

    /// Gives the next object index to an object that may be referenced again.
    mutating func register(_ identifier: ObjectIdentifier) {
        objects[identifier] = objectCount
        objectCount += 1
    }

    /// Takes the next object index for an object that is never referenced again (a struct's
    /// bean, an array's collection): it must be counted, not remembered.
    mutating func countUnsharedObject() {
        objectCount += 1
    }

    /// Writes a reference to object `index` with the base type `base` (collection, map, bean...).
    mutating func writeObjectReference(_ index: Int, base: UInt8) {
        writeTypeAndCount(base | SpearalTypeByte.objectReference, index)
    }

    /// Registers `object` in the object table, or writes a reference and returns `false` if already sent.
    private mutating func registerObject(_ object: AnyObject, base: UInt8) -> Bool {
        let identifier = ObjectIdentifier(object)
        if let index = objects[identifier] {
            writeObjectReference(index, base: base)
            return false
        }
        register(identifier)
        return true
    }

    /// Writes the header and bytes of a BYTE_ARRAY that was already registered.
    mutating func writeByteArrayContent(_ bytes: UnsafeRawBufferPointer) {
        writeTypeAndCount(SpearalTypeByte.byteArray, bytes.count)
        output.append(bytes)
    }

    private mutating func writeByteArray(_ array: SpearalBytes) {
        guard registerObject(array, base: SpearalTypeByte.byteArray) else { return }
        array.bytes.withUnsafeBytes { writeByteArrayContent($0) }
    }

    private mutating func writeCollection(_ list: SpearalList) throws(SpearalError) {
        guard registerObject(list, base: SpearalTypeByte.collection) else { return }
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
        guard registerObject(bean, base: SpearalTypeByte.bean) else { return }
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
