/// One value of the Spearal format, as it travels on the wire.
///
/// Scalars (numbers, strings, dates, enum constants, class names) are plain values.
/// Byte arrays, collections, maps and beans are reference types (``SpearalBytes``,
/// ``SpearalList``, ``SpearalMap``, ``SpearalBean``) because the format gives them
/// *identity*: the same instance reachable twice is sent once and then referenced, and
/// an instance can contain itself (a cycle). Encoding a graph of these objects and decoding
/// it back yields a graph with the same shape and the same sharing.
///
/// `SpearalValue` is not `Sendable`: it can hold a mutable, possibly cyclic graph of
/// objects. Convert it to `Codable` types (see ``SpearalDecoder``) to hand data across
/// concurrency domains, or keep the encoded `Data`, which is `Sendable`.
public enum SpearalValue {
    /// NULL (`0x00`).
    case null
    /// TRUE (`0x01`) or FALSE (`0x02`).
    case bool(Bool)
    /// INTEGRAL (`0x1_`): a signed 64-bit integer in sign-and-magnitude form.
    case integral(Int)
    /// BIG_INTEGRAL (`0x2_`): an arbitrary-precision integer as decimal text.
    ///
    /// The text may use the `E` form (`"1E21"`); plain digits are exponentized when
    /// written, as spearal-java does, so `"1000000000000000000000"` is sent as `1E21`.
    case bigIntegral(String)
    /// FLOATING (`0x3_`): an IEEE-754 double, written raw or in the compact decimal form.
    ///
    /// Integral doubles within ±(2^52−1) are written as INTEGRAL, like spearal-java does,
    /// so they decode as ``integral(_:)``.
    case floating(Double)
    /// BIG_FLOATING (`0x4_`): an arbitrary-precision decimal as text (Java `BigDecimal.toString()`).
    case bigFloating(String)
    /// STRING (`0x5_`): UTF-8 text, shared through the string table.
    case string(String)
    /// BYTE_ARRAY (`0x6_`): raw bytes with object identity.
    case byteArray(SpearalBytes)
    /// DATE_TIME (`0x7_`): a UTC date, time or both with an optional sub-second part.
    case dateTime(SpearalDateTime)
    /// COLLECTION (`0x8_`): an ordered list with object identity.
    case collection(SpearalList)
    /// MAP (`0x9_`): ordered key/value entries with object identity; keys may be any value.
    case map(SpearalMap)
    /// ENUM (`0xA_`): a constant of a named enum class.
    case enumValue(SpearalEnumConstant)
    /// CLASS (`0xB_`): a class name.
    case classValue(String)
    /// BEAN (`0xC_`): an object with named properties and identity.
    case bean(SpearalBean)
}

extension SpearalValue {
    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The object behind a byte array, collection, map or bean, used for identity; `nil` for scalars.
    var object: AnyObject? {
        switch self {
        case .byteArray(let object): return object
        case .collection(let object): return object
        case .map(let object): return object
        case .bean(let object): return object
        default: return nil
        }
    }
}

extension SpearalValue: CustomStringConvertible {
    /// A readable dump of the value in the style of ``SpearalPrinter``.
    public var description: String {
        SpearalPrinter().print(self)
    }
}
