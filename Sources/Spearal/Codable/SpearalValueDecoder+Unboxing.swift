import Foundation

extension SpearalValueDecoder {
    /// Values with a dedicated format type: dates, data, decimals, URLs, enums, dictionaries.
    func decodeSpecial<T: Decodable>(_ type: T.Type, kind: SpearalTypeKind) throws -> T? {
        switch kind {
        case .plain, .classType, .undefinable:
            return nil
        case .array:
            guard let arrayType = T.self as? any SpearalArrayDecodable.Type else { return nil }
            guard case .collection(let list) = value else { throw mismatch([SpearalValue].self, "a collection") }
            return try arrayType.spearalDecode(list, decoder: self) as? T
        case .date:
            guard case .dateTime(let dateTime) = value else { throw mismatch(T.self, "a date/time") }
            return dateTime.date as? T
        case .data:
            guard case .byteArray(let array) = value else { throw mismatch(T.self, "a byte array") }
            return Data(array.bytes) as? T
        case .decimal:
            return try unboxDecimal() as? T
        case .url:
            guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch(T.self, "a URL string") }
            return url as? T
        case .enumeration:
            guard let enumeration = T.self as? any SpearalEnumeration.Type else { return nil }
            return try unboxEnumeration(enumeration) as? T
        case .dictionary:
            guard let dictionary = T.self as? any SpearalDictionaryDecodable.Type else { return nil }
            guard case .map(let map) = value else { throw mismatch(T.self, "a map") }
            return try dictionary.spearalDecode(map, decoder: self) as? T
        }
    }

    private func unboxEnumeration<E: SpearalEnumeration>(_ type: E.Type) throws -> E {
        let name: String
        switch value {
        case .enumValue(let constant): name = constant.name
        case .string(let text): name = text
        default: throw mismatch(E.self, "an enum")
        }
        guard let result = E(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Unknown constant \(name) of \(E.self)"))
        }
        return result
    }

    private func unboxDecimal() throws -> Decimal {
        switch value {
        case .integral(let integer): return Decimal(integer)
        case .floating(let double): return Decimal(double)
        case .bigFloating(let text), .bigIntegral(let text):
            if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) { return decimal }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Invalid decimal \(text)"))
        default: throw mismatch(Decimal.self, "a number")
        }
    }

    func unboxBool() throws -> Bool { try Self.unboxBool(value, at: codingPath) }
    func unboxString() throws -> String { try Self.unboxString(value, at: codingPath) }
    func unboxDouble() throws -> Double { try Self.unboxDouble(value, at: codingPath) }
    func unboxFloat() throws -> Float { try Self.unboxFloat(value, at: codingPath) }
    func unboxInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I { try Self.unboxInteger(value, type, at: codingPath) }

    // The static forms let containers unbox scalars without allocating a decoder per property;
    // the path is only built when an error is thrown.

    /// The most common leaf types, recognized by comparing types (in unspecialized generic code
    /// far cheaper than a nested decoder and a dynamic cast); `nil` for other types. Errors are
    /// those the types' own `init(from:)` would throw.
    static func unboxLeaf<T>(_ type: T.Type, from value: SpearalValue, at path: @autoclosure () -> [any CodingKey]) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try unboxString(value, at: path()), to: T.self) }
        if T.self == Date.self {
            guard case .dateTime(let dateTime) = value else { throw mismatch(T.self, "a date/time", found: value, at: path()) }
            return unsafeBitCast(dateTime.date, to: T.self)
        }
        if T.self == Int.self { return unsafeBitCast(try unboxInteger(value, Int.self, at: path()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(value, at: path()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(value, at: path()), to: T.self) }
        return nil
    }

    static func unboxBool(_ value: SpearalValue, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, "a boolean", found: value, at: path()) }
        return flag
    }

    static func unboxString(_ value: SpearalValue, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, "a string", found: value, at: path()) }
        return text
    }

    static func unboxDouble(_ value: SpearalValue, at path: @autoclosure () -> [any CodingKey]) throws -> Double {
        switch value {
        case .floating(let double): return double
        case .integral(let integer): return Double(integer)
        case .bigFloating(let text), .bigIntegral(let text):
            if let double = Double(text) { return double }
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Invalid number \(text)"))
        default: throw mismatch(Double.self, "a number", found: value, at: path())
        }
    }

    static func unboxFloat(_ value: SpearalValue, at path: @autoclosure () -> [any CodingKey]) throws -> Float {
        let double = try unboxDouble(value, at: path())
        guard double.isNaN || double.isInfinite || abs(double) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(double) does not fit Float"))
        }
        return Float(double)
    }

    /// An integer of type `I`, accepting integral values, integral doubles and plain big integrals.
    static func unboxInteger<I: FixedWidthInteger>(_ value: SpearalValue, _ type: I.Type,
                                                   at path: @autoclosure () -> [any CodingKey]) throws -> I {
        let result: I?
        switch value {
        case .integral(let integer): result = I(exactly: integer)
        case .floating(let double): result = I(exactly: double)
        case .bigIntegral(let text): result = expandedDigits(text).flatMap { I($0) }
        default: throw mismatch(I.self, "an integral", found: value, at: path())
        }
        guard let result else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "\(value) does not fit \(I.self)"))
        }
        return result
    }

    /// The plain digits of a big-integral text in the `E` form (`1E3` → `1000`), up to 40 digits.
    static func expandedDigits(_ text: String) -> String? {
        let parts = text.split(separator: "E", omittingEmptySubsequences: false)
        guard parts.count <= 2, let mantissa = parts.first else { return nil }
        guard parts.count == 2 else { return String(mantissa) }
        guard let exponentText = parts.last, let exponent = Int(exponentText), (0...40).contains(exponent) else { return nil }
        return String(mantissa) + String(repeating: "0", count: exponent)
    }
}
