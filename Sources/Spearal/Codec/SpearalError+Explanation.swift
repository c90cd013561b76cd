extension SpearalError {
    /// What is wrong, in words for a person, with the byte offset where it was found; texts
    /// taken from the message are cut to 80 characters.
    ///
    /// ```swift
    /// SpearalError.truncated(offset: 4, needed: 2).explanation
    /// // "it ends early: 2 more bytes were needed at byte 4"
    /// ```
    public var explanation: String {
        switch self {
        case .truncated(let offset, let needed): "it ends early: \(needed) more bytes were needed at byte \(offset)"
        case .unknownTypeByte(let byte, let offset): "unknown type byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .invalidUTF8(let offset): "text that is not UTF-8 at byte \(offset)"
        case .invalidStringReference(let index, let offset): "a reference to string \(index), which was not sent, at byte \(offset)"
        case .invalidObjectReference(let index, let offset): "a reference to object \(index), which was not sent, at byte \(offset)"
        case .lengthExceedsInput(let length, let offset): "a length of \(length) at byte \(offset), longer than the body"
        case .depthLimitExceeded(let limit, let offset): "values nested deeper than \(limit) levels at byte \(offset)"
        case .trailingBytes(let count, let offset): "\(count) bytes after the value, from byte \(offset)"
        case .integralOverflow(let offset): "an integer beyond 64 bits at byte \(offset)"
        case .invalidBigNumber(let offset): "a malformed big number at byte \(offset)"
        case .invalidDateTime(let offset): "an impossible date or time at byte \(offset)"
        case .invalidEnumConstant(let offset): "a malformed enum constant at byte \(offset)"
        case .invalidClassDescription(let offset): "a class description without '#' at byte \(offset)"
        case .cyclicReference(let className): "a cycle through \(className.prefix(80))"
        case .unencodableValue(let what): "an unencodable value: \(what.prefix(80))"
        case .invalidPropertyFilter(let value): "an invalid property filter: \(value.prefix(80))"
        }
    }
}
