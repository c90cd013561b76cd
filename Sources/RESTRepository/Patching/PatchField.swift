/// One field of a JSON Merge Patch (RFC 7396): left alone, cleared, or set.
///
/// Use it for optional fields; use ``RequiredPatchField`` for fields that must never be null.
/// Encode it with `KeyedEncodingContainer.encode(_:forKey:)` from this module, which writes
/// nothing for ``absent``.
public enum PatchField<Value: Sendable>: Sendable {
    /// Leave the field as the server has it: the key is not sent.
    case absent
    /// Clear the field: the key is sent with `null`.
    case null
    /// Set the field: the key is sent with the value.
    case value(Value)

    /// Whether the patch says anything about this field.
    public var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }
}

extension PatchField: Equatable where Value: Equatable {}

/// One field of a JSON Merge Patch that may be left alone or set, but never cleared, for
/// fields the server requires (such as a title).
public enum RequiredPatchField<Value: Sendable>: Sendable {
    /// Leave the field as the server has it: the key is not sent.
    case absent
    /// Set the field: the key is sent with the value.
    case value(Value)
}

extension RequiredPatchField: Equatable where Value: Equatable {}

extension KeyedEncodingContainer {
    /// Writes a tri-state field: nothing when absent, `null` when cleared, the value when set.
    ///
    /// - Throws: what encoding the value throws.
    public mutating func encode<Value: Encodable>(
        _ field: PatchField<Value>, forKey key: Key
    ) throws {
        switch field {
        case .absent: break
        case .null: try encodeNil(forKey: key)
        case .value(let value): try encode(value, forKey: key)
        }
    }

    /// Writes a required field: nothing when absent, the value when set.
    ///
    /// - Throws: what encoding the value throws.
    public mutating func encode<Value: Encodable>(
        _ field: RequiredPatchField<Value>, forKey key: Key
    ) throws {
        if case .value(let value) = field {
            try encode(value, forKey: key)
        }
    }
}
