import Foundation

/// The format values of Swift types that have a dedicated format type rather than going
/// through their own `encode(to:)`; shared by the value-model and the direct-write encoders.
enum SpearalSpecialValue {
    /// The value of `child` when `kind` gives it a dedicated format type (date, data, decimal,
    /// URL, enum), `nil` otherwise (dictionaries and arrays are written by the encoders).
    /// - Parameters:
    ///   - child: the value to convert.
    ///   - kind: the kind of `T`.
    ///   - codingPath: the path reported by errors.
    ///   - className: the remote class name of `T`, asked for enums only.
    static func make<T>(_ child: T, kind: SpearalTypeKind, codingPath: @autoclosure () -> [any CodingKey],
                        className: () -> String) throws -> SpearalValue? {
        switch kind {
        case .plain, .classType, .undefinable, .dictionary, .array:
            return nil
        case .date:
            guard let date = child as? Date else { return nil }
            return try dateTime(date, codingPath: codingPath())
        case .data:
            return (child as? Data).map { .byteArray(SpearalBytes([UInt8]($0))) }
        case .decimal:
            guard let decimal = child as? Decimal else { return nil }
            guard decimal.isFinite else {
                throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath(), debugDescription: "Decimal NaN cannot be sent"))
            }
            return .bigFloating(decimal.description)
        case .url:
            return (child as? URL).map { .string($0.absoluteString) }
        case .enumeration:
            guard let enumeration = child as? any SpearalEnumeration else { return nil }
            return .enumValue(SpearalEnumConstant(className: className(), name: enumeration.rawValue))
        }
    }

    /// The DATE_TIME of `date`, which must be finite.
    static func dateTime(_ date: Date, codingPath: @autoclosure () -> [any CodingKey]) throws -> SpearalValue {
        guard date.timeIntervalSince1970.isFinite else { throw invalidDate(date, codingPath: codingPath()) }
        return .dateTime(SpearalDateTime(date))
    }

    /// The error for a NaN or infinite `Date`, which has no calendar fields.
    static func invalidDate(_ date: Date, codingPath: [any CodingKey]) -> EncodingError {
        .invalidValue(date, .init(codingPath: codingPath, debugDescription: "A non-finite Date cannot be sent"))
    }
}
