import Foundation

/// Reads one ``SpearalValue`` from Spearal bytes, rebuilding the string and object tables.
///
/// Every length is checked against the bytes left before anything is allocated, nesting is
/// bounded by ``SpearalDecodingOptions/maxDepth``, and every problem throws a ``SpearalError``.
///
/// The reader works on the message's own storage (no copy of it), so it only lives inside
/// ``readMessage(in:options:)``; every index is checked against the buffer before it is read.
struct SpearalReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0
    private var strings: [String] = []
    private var objects: [SpearalValue] = []
    /// Parsed bean descriptions by string-table index, so repeated beans do not re-split them.
    private var descriptions: [Int: (className: String, names: [String])] = [:]
    private let options: SpearalDecodingOptions
    /// Whether an object back-reference was read: without one the graph cannot have cycles.
    private(set) var hasObjectReferences = false

    private init(bytes: UnsafeRawBufferPointer, options: SpearalDecodingOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// Reads the single value of the message `data`.
    /// - Returns: the value, and whether it holds object back-references (only then can the
    ///   graph have cycles that ``SpearalValue/dismantle()`` must break).
    static func readMessage(in data: Data, options: SpearalDecodingOptions) throws(SpearalError)
        -> (value: SpearalValue, hasObjectReferences: Bool) {
        let result = data.withUnsafeBytes { buffer in
            Result { () throws(SpearalError) in
                var reader = SpearalReader(bytes: buffer, options: options)
                let value = try reader.readMessage()
                return (value, reader.hasObjectReferences)
            }
        }
        return try result.get()
    }

    /// Reads the single value of a message, rejecting trailing bytes if the options say so.
    private mutating func readMessage() throws(SpearalError) -> SpearalValue {
        do throws(SpearalError) {
            let value = try readValue(depth: 0)
            if options.rejectsTrailingBytes && position < bytes.count {
                throw .trailingBytes(count: bytes.count - position, offset: position)
            }
            return value
        } catch {
            // The objects built so far may already form cycles: free them before giving up.
            if hasObjectReferences {
                for object in objects {
                    object.dismantle()
                }
            }
            throw error
        }
    }

    var remaining: Int { bytes.count - position }

    var maxDepth: Int { options.maxDepth }

    mutating func readByte() throws(SpearalError) -> UInt8 {
        guard position < bytes.count else { throw .truncated(offset: position, needed: 1) }
        let byte = bytes[position]
        position += 1
        return byte
    }

    /// Reads an unsigned big-endian integer of `count` (1...8) bytes.
    mutating func readUnsigned(_ count: Int) throws(SpearalError) -> UInt64 {
        guard count <= remaining else { throw .truncated(offset: position, needed: count - remaining) }
        var value: UInt64 = 0
        for index in position..<(position + count) {
            value = value << 8 | UInt64(bytes[index])
        }
        position += count
        return value
    }

    /// Reads the count or index whose length0 is in the two low bits of `type`.
    mutating func readCount(_ type: UInt8) throws(SpearalError) -> Int {
        Int(try readUnsigned(Int(type & 0x03) + 1))
    }

    /// Reads `count` raw bytes after checking they are there.
    mutating func readBytes(_ count: Int) throws(SpearalError) -> UnsafeRawBufferPointer {
        guard count <= remaining else { throw .lengthExceedsInput(length: count, offset: position) }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
        position += count
        return slice
    }

    mutating func readValue(depth: Int) throws(SpearalError) -> SpearalValue {
        let offset = position
        let type = try readByte()
        switch type {
        case SpearalTypeByte.null: return .null
        case SpearalTypeByte.true: return .bool(true)
        case SpearalTypeByte.false: return .bool(false)
        case 0x03...0x0F: throw .unknownTypeByte(type, offset: offset)
        default: break
        }
        switch type & 0xF0 {
        case SpearalTypeByte.integral: return .integral(try readIntegral(type, offset: offset))
        case SpearalTypeByte.bigIntegral: return .bigIntegral(try readBigNumber(type))
        case SpearalTypeByte.floating: return .floating(try readFloating(type))
        case SpearalTypeByte.bigFloating: return .bigFloating(try readBigNumber(type))
        case SpearalTypeByte.string: return .string(try readStringLike(type).string)
        case SpearalTypeByte.byteArray: return try readByteArray(type)
        case SpearalTypeByte.dateTime: return .dateTime(try readDateTime(type, offset: offset))
        case SpearalTypeByte.collection: return try readCollection(type, depth: depth, offset: offset)
        case SpearalTypeByte.map: return try readMap(type, depth: depth, offset: offset)
        case SpearalTypeByte.enumValue: return .enumValue(try readEnum(type))
        case SpearalTypeByte.classValue: return .classValue(try readStringLike(type).string)
        case SpearalTypeByte.bean: return try readBean(type, depth: depth, offset: offset)
        default: throw .unknownTypeByte(type, offset: offset)
        }
    }

    private mutating func readIntegral(_ type: UInt8, offset: Int) throws(SpearalError) -> Int {
        let magnitude = try readUnsigned(Int(type & 0x07) + 1)
        let limit = UInt64(Int.max)
        if type & 0x08 != 0 {
            guard magnitude <= limit + 1 else { throw .integralOverflow(offset: offset) }
            return magnitude == limit + 1 ? Int.min : -Int(magnitude)
        }
        // −2^63 travels as its 8 raw bytes without the sign flag (docs/spearal.md section 3.2).
        if magnitude == limit + 1 { return Int.min }
        guard magnitude <= limit else { throw .integralOverflow(offset: offset) }
        return Int(magnitude)
    }

    private mutating func readFloating(_ type: UInt8) throws(SpearalError) -> Double {
        guard type & 0x08 != 0 else {
            return Double(bitPattern: try readUnsigned(8))
        }
        let value = Double(try readUnsigned(Int(type & 0x03) + 1)) / 1000
        return type & 0x04 != 0 ? -value : value
    }

    /// Reads the string-like payload of STRING, ENUM, CLASS and BEAN: a literal or a table reference.
    mutating func readStringLike(_ type: UInt8) throws(SpearalError) -> (string: String, index: Int?) {
        let offset = position
        let count = try readCount(type)
        if type & SpearalTypeByte.stringReference != 0 {
            guard count < strings.count else { throw .invalidStringReference(index: count, offset: offset) }
            return (strings[count], count)
        }
        guard count > 0 else { return ("", nil) }
        let start = position
        let utf8 = try readBytes(count)
        guard let string = Self.makeString(utf8) else { throw .invalidUTF8(offset: start) }
        strings.append(string)
        return (string, strings.count - 1)
    }

    private static func makeString(_ utf8: UnsafeRawBufferPointer) -> String? {
        utf8.withMemoryRebound(to: UInt8.self) { buffer in
            if #available(macOS 15, iOS 18, *) {
                return String(validating: buffer, as: UTF8.self)
            }
            return String(bytes: buffer, encoding: .utf8)
        }
    }

    private mutating func readBigNumber(_ type: UInt8) throws(SpearalError) -> String {
        let offset = position
        let count = try readCount(type)
        if type & SpearalTypeByte.stringReference != 0 {
            guard count < strings.count else { throw .invalidStringReference(index: count, offset: offset) }
            return strings[count]
        }
        let packed = try readBytes((count + 1) / 2)
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(count)
        for byte in packed {
            nibbles.append(byte >> 4)
            if nibbles.count < count { nibbles.append(byte & 0x0F) }
        }
        guard count > 0, let text = SpearalBigNumberText.text(of: nibbles) else {
            throw .invalidBigNumber(offset: offset)
        }
        strings.append(text)
        return text
    }

    /// Resolves an object-table reference written after a type byte with bit 3 set.
    mutating func readObjectReference(_ type: UInt8) throws(SpearalError) -> SpearalValue {
        let offset = position
        let index = try readCount(type)
        guard index < objects.count else { throw .invalidObjectReference(index: index, offset: offset) }
        hasObjectReferences = true
        return objects[index]
    }

    mutating func register(_ value: SpearalValue) {
        objects.append(value)
    }

    /// The cached split of a bean description, if it was parsed before.
    func cachedDescription(at index: Int?) -> (className: String, names: [String])? {
        guard let index else { return nil }
        return descriptions[index]
    }

    mutating func cacheDescription(_ parsed: (className: String, names: [String]), at index: Int?) {
        guard let index else { return }
        descriptions[index] = parsed
    }
}
