/// Reads the elements of a COLLECTION in order.
struct SpearalUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    private typealias Unbox = SpearalValueDecoder
    let decoder: SpearalValueDecoder
    let elements: [SpearalValue]
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(decoder: SpearalValueDecoder, elements: [SpearalValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    /// The next element and its position, advancing past it.
    private mutating func nextValue() throws -> (value: SpearalValue, element: SpearalPathElement) {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "No element at index \(currentIndex)"))
        }
        let element = SpearalPathElement.index(currentIndex)
        let value = elements[currentIndex]
        currentIndex += 1
        return (value, element)
    }

    /// The decoder of the next element, advancing past it.
    private mutating func next() throws -> SpearalValueDecoder {
        let (value, element) = try nextValue()
        return decoder.nested(value, at: element)
    }

    /// Unboxes the next element as a scalar without allocating a decoder for it.
    private mutating func unbox<T>(_ read: (SpearalValue, () -> [any CodingKey]) throws -> T) throws -> T {
        let (value, element) = try nextValue()
        return try read(value) { decoder.codingPath(at: element) }
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elements.count, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try unbox { try Unbox.unboxBool($0, at: $1()) } }
    mutating func decode(_ type: String.Type) throws -> String { try unbox { try Unbox.unboxString($0, at: $1()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try unbox { try Unbox.unboxDouble($0, at: $1()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try unbox { try Unbox.unboxFloat($0, at: $1()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try unbox { try Unbox.unboxInteger($0, type, at: $1()) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, element) = try nextValue()
        return try decoder.decodeChild(T.self, from: value, at: element)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next()
    }
}
