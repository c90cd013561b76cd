/// Everything that can go wrong while reading or writing Spearal data.
///
/// The decoder never traps on malformed input: each problem throws one of these cases.
/// Offsets are byte positions in the message.
public enum SpearalError: Error, Hashable, Sendable {
    /// The message ended in the middle of a value: `needed` more bytes were required at `offset`.
    case truncated(offset: Int, needed: Int)
    /// A type byte that the format does not define (`0x03...0x0F`, `0xD0...0xFF`).
    case unknownTypeByte(UInt8, offset: Int)
    /// A string, enum, class or bean description whose bytes are not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A string-table reference to an index that has not been defined yet.
    case invalidStringReference(index: Int, offset: Int)
    /// An object-table reference to an index that has not been defined yet.
    case invalidObjectReference(index: Int, offset: Int)
    /// A length or count larger than the bytes left in the message (checked before allocating).
    case lengthExceedsInput(length: Int, offset: Int)
    /// Values nested deeper than ``SpearalDecodingOptions/maxDepth``.
    case depthLimitExceeded(limit: Int, offset: Int)
    /// Bytes left over after the single top-level value.
    case trailingBytes(count: Int, offset: Int)
    /// An integral whose magnitude does not fit a signed 64-bit integer.
    case integralOverflow(offset: Int)
    /// A big-number text with a symbol outside the format's alphabet, or with a malformed `E` form.
    case invalidBigNumber(offset: Int)
    /// A date/time field out of range (month 0, hour 24, sub-second beyond one second...).
    case invalidDateTime(offset: Int)
    /// An ENUM whose class name is not followed by a STRING holding the constant name.
    case invalidEnumConstant(offset: Int)
    /// A bean class description without `#`.
    case invalidClassDescription(offset: Int)
    /// An object-table reference to a bean that is still being decoded, met by the `Codable`
    /// bridge, which cannot build cycles; decode with ``SpearalDecoder/decodeValue(from:)`` instead.
    case cyclicReference(className: String)
    /// A value that cannot be written: an invalid ``SpearalDateTime`` or a malformed big-number text.
    case unencodableValue(String)
    /// A `Spearal-PropertyFilter` header value that is not `className#prop,prop`.
    case invalidPropertyFilter(String)
}
